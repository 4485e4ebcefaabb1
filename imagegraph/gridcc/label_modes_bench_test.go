package gridcc_test

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// benchFull reports whether the benchmarks run at full size (8192² and
// 512³) instead of 2048² and 128³: CCLABEL_BENCH_FULL=1.
func benchFull() bool { return os.Getenv("CCLABEL_BENCH_FULL") == "1" }

// benchSides returns the side of the benchmark images and volumes.
func benchSides() (image, volume int) {
	if benchFull() {
		return 8192, 512
	}
	return 2048, 128
}

// benchInput is a synthetic benchmark input, made once.
type benchInput struct {
	name string
	make func() (*imagegraph.Raster, error)
}

// benchInputs returns the inputs of BenchmarkLabelModes for images (is3D
// false) or volumes: random (p=0.6 in 2D, 0.3 in 3D, seed 1, as "cclabel
// gen" makes them), blobs (density 0.5 as in issue 11's table and "cclabel bench";
// radius 4 in 2D, 3 in 3D) and cells (a dense segmentation with cells of about
// 32 pixels across: one cell per 1024 pixels or 32768 voxels).
func benchInputs(is3D bool) []benchInput {
	w, h, d := 0, 0, 1
	image, volume := benchSides()
	p, density, radius, cellSize := 0.6, 0.5, 4, 1024
	if is3D {
		w, h, d = volume, volume, volume
		p, density, radius, cellSize = 0.3, 0.5, 3, 32768
	} else {
		w, h = image, image
	}
	return []benchInput{
		{"random", sync.OnceValues(func() (*imagegraph.Raster, error) { return gen.RandomRaster(w, h, d, p, 1) })},
		{"blobs", sync.OnceValues(func() (*imagegraph.Raster, error) { return gen.BlobsRaster(w, h, d, density, radius, 1) })},
		{"cells", sync.OnceValues(func() (*imagegraph.Raster, error) { return gen.CellsRaster(w, h, d, w*h*d/cellSize, 1) })},
	}
}

// BenchmarkLabelModes times Label, into a reused label buffer, for every
// rule (binary, multilabel) and connectivity (2D 4 and 8, 3D 6, 18 and 26)
// on random, blobs and cells inputs, on one thread and on all
// (GOMAXPROCS). Sizes are 2048² and 128³, or 8192² and 512³ with
// CCLABEL_BENCH_FULL=1. Names read SIZE/INPUT/RULE/cCONN/threadsN.
func BenchmarkLabelModes(b *testing.B) {
	all := runtime.GOMAXPROCS(0)
	threads := []int{1}
	if all > 1 {
		threads = append(threads, all)
	}
	rules := []imagegraph.Rule{{Mode: imagegraph.Binary}, {Mode: imagegraph.Multilabel}}
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, in := range benchInputs(is3D) {
			var dst []uint32
			for _, rule := range rules {
				for _, conn := range conns {
					for _, t := range threads {
						image, volume := benchSides()
						size := fmt.Sprintf("%dx%d", image, image)
						if is3D {
							size = fmt.Sprintf("%dx%dx%d", volume, volume, volume)
						}
						b.Run(fmt.Sprintf("%s/%s/%v/c%d/threads%d", size, in.name, rule, conn, t), func(b *testing.B) {
							r, err := in.make()
							if err != nil {
								b.Fatal(err)
							}
							if len(dst) != r.Len() {
								dst = make([]uint32, r.Len())
							}
							opts := gridcc.Options{Connectivity: conn, Threads: t}
							// The garbage of making inputs would otherwise
							// be collected while the first case is timed.
							runtime.GC()
							for b.Loop() {
								if _, err := gridcc.Label(r, rule, opts, dst); err != nil {
									b.Fatal(err)
								}
							}
							b.ReportMetric(float64(r.Len())*float64(b.N)/b.Elapsed().Seconds()/1e6, "MVx/s")
						})
					}
				}
			}
		}
	}
}
