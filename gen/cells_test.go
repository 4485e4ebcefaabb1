package gen

import (
	"runtime"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func TestCellsRaster(t *testing.T) {
	for _, c := range []struct{ w, h, d, cells int }{
		{1, 1, 1, 1}, {37, 1, 1, 3}, {1, 41, 1, 5}, {300, 200, 1, 60}, {64, 48, 40, 100}, {13, 11, 7, 4},
	} {
		r, err := CellsRaster(c.w, c.h, c.d, c.cells, 7)
		if err != nil {
			t.Fatal(err)
		}
		data := r.Data.(imagegraph.Samples[uint32])
		again, _ := CellsRaster(c.w, c.h, c.d, c.cells, 7)
		other, _ := CellsRaster(c.w, c.h, c.d, c.cells, 8)
		if !slices.Equal(data, again.Data.(imagegraph.Samples[uint32])) {
			t.Fatalf("%v: same seed, different rasters", c)
		}
		values := map[uint32]int{}
		zeros := 0
		for _, v := range data {
			if v == 0 {
				zeros++
			} else {
				values[v]++
			}
		}
		if len(data) > 1000 {
			if slices.Equal(data, other.Data.(imagegraph.Samples[uint32])) {
				t.Fatalf("%v: different seeds, same raster", c)
			}
			if n := len(values); n < c.cells/2 || n > 2*c.cells {
				t.Errorf("%v: %d distinct values, want about %d", c, n, c.cells)
			}
			if f := float64(zeros) / float64(len(data)); f < 0.01 || f > 0.3 {
				t.Errorf("%v: background fraction %.3f", c, f)
			}
		}
	}
	if _, err := CellsRaster(4, 4, 1, 0, 1); err == nil {
		t.Error("zero cells accepted")
	}
	if _, err := CellsRaster(4, 4, 1, 17, 1); err == nil {
		t.Error("more cells than pixels accepted")
	}
}

func BenchmarkCellsRaster(b *testing.B) {
	for b.Loop() {
		if _, err := CellsRaster(256, 256, 256, 512, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCellsRasterThreadIndependent(t *testing.T) {
	// The workers that paint the walls split the layers differently for
	// every GOMAXPROCS; the raster must not change.
	want, err := CellsRaster(70, 60, 50, 40, 9)
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{1, 3, 7} {
		old := runtime.GOMAXPROCS(procs)
		got, _ := CellsRaster(70, 60, 50, 40, 9)
		runtime.GOMAXPROCS(old)
		if !slices.Equal(got.Data.(imagegraph.Samples[uint32]), want.Data.(imagegraph.Samples[uint32])) {
			t.Fatalf("GOMAXPROCS %d: different raster", procs)
		}
	}
}
