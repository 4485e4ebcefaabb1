package gridcc_test

import (
	"fmt"
	"runtime"
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

// BenchmarkLabelNeurites times multilabel 26-connectivity on EM-like
// segmentations: the 512³ "cclabel gen volume --kind neurites --cells
// 2500 --seed 1" (a 128³ one with 300 fragments unless
// CCLABEL_BENCH_FULL=1), in memory order (x fastest) and transposed so
// that z varies fastest, the same neurites on 16 x 16 x 40 nm voxels
// (gen.NeuritesRasterSpaced; thinner in x and y, so shorter runs), and
// Voronoi cells of the same label count.
func BenchmarkLabelNeurites(b *testing.B) {
	_, side := benchSides()
	ins, err := neuriteInputs(side)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint32, ins[0].r.Len())
	for _, c := range ins {
		b.Run(fmt.Sprintf("%d/%s", side, c.name), func(b *testing.B) {
			opts := gridcc.Options{Connectivity: 26, Threads: runtime.GOMAXPROCS(0)}
			for b.Loop() {
				if _, err := gridcc.Label(c.r, imagegraph.Rule{Mode: imagegraph.Multilabel}, opts, dst); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c.r.Len())*float64(b.N)/b.Elapsed().Seconds()/1e6, "MVx/s")
		})
	}
}

// neuriteInputs returns the volumes of [BenchmarkLabelNeurites] of the
// given side.
func neuriteInputs(side int) ([]namedRaster, error) {
	labels := 2500
	if side < 512 {
		labels = 300
	}
	neurites, err := gen.NeuritesRaster(side, side, side, labels, 1)
	if err != nil {
		return nil, err
	}
	coarse, err := gen.NeuritesRasterSpaced(side, side, side, labels, 1, [3]float64{16, 16, 40})
	if err != nil {
		return nil, err
	}
	cells, err := gen.CellsRaster(side, side, side, labels, 1)
	if err != nil {
		return nil, err
	}
	return []namedRaster{
		{"neurites/xfast", neurites}, {"neurites/zfast", zFastest(neurites)},
		{"neurites16nm/xfast", coarse}, {"neurites16nm/zfast", zFastest(coarse)}, {"cells/xfast", cells},
	}, nil
}

// zFastest returns the uint32 volume r with its axes reversed: z varies
// fastest in memory, as in a C-order array whose last axis is z.
func zFastest(r *imagegraph.Raster) *imagegraph.Raster {
	src := r.Data.(imagegraph.Samples[uint32])
	dst := make([]uint32, len(src))
	w, h, d := r.Width, r.Height, r.Depth
	for z := range d {
		for y := range h {
			for x := range w {
				dst[z+d*(y+h*x)] = src[x+w*(y+h*z)]
			}
		}
	}
	t, err := imagegraph.NewRaster(d, h, w, dst)
	if err != nil {
		panic(err)
	}
	return t
}
