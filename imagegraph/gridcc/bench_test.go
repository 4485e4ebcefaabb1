package gridcc_test

import (
	"fmt"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// BenchmarkLabel times the labeling kernel on the acceptance inputs:
// random binary images (p=0.6) at 8-connectivity, as made by
// "cclabel gen image --density 0.6 --seed 1", on one and two threads.
// Compare with bench/scipy_label.py on the same .npy. The 8192² image
// needs CCLABEL_BENCH_FULL=1.
func BenchmarkLabel(b *testing.B) {
	image, _ := benchSides()
	for _, size := range []int{image} {
		r, err := gen.RandomRaster(size, size, 1, 0.6, 1)
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]uint32, r.Len())
		for _, c := range []struct {
			rule imagegraph.Rule
			conn int
		}{
			{imagegraph.Rule{Mode: imagegraph.Binary}, 8},
			{imagegraph.Rule{Mode: imagegraph.Multilabel}, 8},
			{imagegraph.Rule{Mode: imagegraph.Binary}, 4},
		} {
			for _, threads := range []int{1, 2} {
				name := fmt.Sprintf("%dx%d/%v/c%d/threads%d", size, size, c.rule, c.conn, threads)
				b.Run(name, func(b *testing.B) {
					opts := gridcc.Options{Connectivity: c.conn, Threads: threads}
					for b.Loop() {
						if _, err := gridcc.Label(r, c.rule, opts, dst); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(r.Len())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpx/s")
				})
			}
		}
	}
}

// BenchmarkLabelVolume times the labeling kernel on random binary volumes
// (p=0.3) at 26-connectivity, as made by "cclabel gen volume --density 0.3
// --seed 1". Compare with bench/scipy_label.py on the same .npy. The 512³
// volume needs CCLABEL_BENCH_FULL=1.
func BenchmarkLabelVolume(b *testing.B) {
	_, volume := benchSides()
	for _, size := range []int{volume} {
		r, err := gen.RandomRaster(size, size, size, 0.3, 1)
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]uint32, r.Len())
		for _, conn := range []int{26, 6} {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%d^3/binary/c%d/threads%d", size, conn, threads), func(b *testing.B) {
					opts := gridcc.Options{Connectivity: conn, Threads: threads}
					for b.Loop() {
						if _, err := gridcc.Label(r, imagegraph.Rule{Mode: imagegraph.Binary}, opts, dst); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(r.Len())*float64(b.N)/b.Elapsed().Seconds()/1e6, "MVx/s")
				})
			}
		}
	}
}
