package gen

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

func TestNeuritesRaster(t *testing.T) {
	for _, c := range []struct {
		w, h, d, fragments int
		dense              bool // fragments too small to keep as many labels
	}{
		{1, 1, 1, 1, false}, {40, 30, 1, 5, false}, {96, 80, 24, 40, false}, {128, 128, 48, 150, false},
		{128, 128, 128, 2500, true}, // pieces in the last plane look past its end
	} {
		r, err := NeuritesRaster(c.w, c.h, c.d, c.fragments, 7)
		if err != nil {
			t.Fatal(err)
		}
		data := r.Data.(imagegraph.Samples[uint32])
		again, _ := NeuritesRaster(c.w, c.h, c.d, c.fragments, 7)
		if !slices.Equal(data, again.Data.(imagegraph.Samples[uint32])) {
			t.Fatalf("%v: same seed, different rasters", c)
		}
		values, zeros := map[uint32]bool{}, 0
		for _, v := range data {
			if v == 0 {
				zeros++
			} else {
				values[v] = true
			}
		}
		if c.d == 1 {
			continue
		}
		other, _ := NeuritesRaster(c.w, c.h, c.d, c.fragments, 8)
		if slices.Equal(data, other.Data.(imagegraph.Samples[uint32])) {
			t.Fatalf("%v: different seeds, same raster", c)
		}
		if n := len(values); !c.dense && n < c.fragments/2 || n > 2*c.fragments {
			t.Errorf("%v: %d labels, want about %d", c, n, c.fragments)
		}
		if f := float64(zeros) / float64(len(data)); f > 0.4 {
			t.Errorf("%v: background fraction %.3f", c, f)
		}
		// Every label is one component at 26-connectivity, by the labeler
		// and by a search of its own.
		l, err := gridcc.Label(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, gridcc.Options{Connectivity: 26, Threads: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l.Count != len(values) {
			t.Errorf("%v: %d components of %d labels", c, l.Count, len(values))
		}
		if n := components26(c.w, c.h, c.d, data); n != len(values) {
			t.Errorf("%v: search finds %d components of %d labels", c, n, len(values))
		}
	}
	if _, err := NeuritesRaster(4, 4, 1, 0, 1); err == nil {
		t.Error("zero fragments accepted")
	}
	if _, err := NeuritesRaster(4, 4, 1, 17, 1); err == nil {
		t.Error("more fragments than pixels accepted")
	}
}

// components26 counts the 26-connected components of equal nonzero values
// by breadth-first search.
func components26(w, h, d int, data []uint32) int {
	seen := make([]bool, len(data))
	count := 0
	var queue []int
	for s, v := range data {
		if v == 0 || seen[s] {
			continue
		}
		count++
		seen[s] = true
		queue = append(queue[:0], s)
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			x, y, z := i%w, i/w%h, i/(w*h)
			for dz := -1; dz <= 1; dz++ {
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						nx, ny, nz := x+dx, y+dy, z+dz
						if nx < 0 || nx >= w || ny < 0 || ny >= h || nz < 0 || nz >= d {
							continue
						}
						if j := nx + w*(ny+h*nz); !seen[j] && data[j] == v {
							seen[j] = true
							queue = append(queue, j)
						}
					}
				}
			}
		}
	}
	return count
}

func TestNeuritesRasterThreadIndependent(t *testing.T) {
	// The workers split the planes differently for every GOMAXPROCS; the
	// raster must not change.
	old := runtime.GOMAXPROCS(1)
	want, err := NeuritesRaster(100, 90, 40, 60, 9)
	runtime.GOMAXPROCS(old)
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{3, 7, runtime.NumCPU()} {
		old := runtime.GOMAXPROCS(procs)
		got, _ := NeuritesRaster(100, 90, 40, 60, 9)
		runtime.GOMAXPROCS(old)
		if !slices.Equal(got.Data.(imagegraph.Samples[uint32]), want.Data.(imagegraph.Samples[uint32])) {
			t.Fatalf("GOMAXPROCS %d: different raster", procs)
		}
	}
}

func BenchmarkNeuritesRaster(b *testing.B) {
	for b.Loop() {
		if _, err := NeuritesRaster(256, 256, 64, 300, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func TestNeuritesRasterSpaced(t *testing.T) {
	fine, err := NeuritesRaster(128, 96, 25, 60, 3)
	if err != nil {
		t.Fatal(err)
	}
	same, err := NeuritesRasterSpaced(128, 96, 25, 60, 3, [3]float64{4, 4, 40})
	if err != nil {
		t.Fatal(err)
	}
	fd := fine.Data.(imagegraph.Samples[uint32])
	if !slices.Equal(fd, same.Data.(imagegraph.Samples[uint32])) {
		t.Fatal("spacing 4x4x40 differs from NeuritesRaster")
	}
	viaSynthetic, err := Synthetic{Kind: "neurites", Cells: 60, Seed: 3}.Raster(128, 96, 25)
	if err != nil || !slices.Equal(fd, viaSynthetic.Data.(imagegraph.Samples[uint32])) {
		t.Fatalf("Synthetic without spacing differs from NeuritesRaster (%v)", err)
	}
	// Voxels twice as wide sample the same tubes at every other column and
	// row: they agree there but where pieces were joined differently.
	for _, c := range []struct {
		spacing [3]float64
		w, h, d int
		at      func(x, y, z int) int
	}{
		{[3]float64{8, 8, 40}, 64, 48, 25, func(x, y, z int) int { return 2*x + 128*(2*y+96*z) }},
		{[3]float64{4, 8, 40}, 128, 48, 25, func(x, y, z int) int { return x + 128*(2*y+96*z) }},
		{[3]float64{4, 4, 80}, 128, 96, 13, func(x, y, z int) int { return x + 128*(y+96*2*z) }},
	} {
		r, err := NeuritesRasterSpaced(c.w, c.h, c.d, 60, 3, c.spacing)
		if err != nil {
			t.Fatal(err)
		}
		data := r.Data.(imagegraph.Samples[uint32])
		agree, values := 0, map[uint32]bool{}
		for z := range c.d {
			for y := range c.h {
				for x := range c.w {
					v := data[x+c.w*(y+c.h*z)]
					agree += int(b2i(v == fd[c.at(x, y, z)]))
					if v != 0 {
						values[v] = true
					}
				}
			}
		}
		if f := float64(agree) / float64(len(data)); f < 0.9 {
			t.Errorf("%v: %.3f of the voxels agree with the fine raster's", c.spacing, f)
		}
		if n := components26(c.w, c.h, c.d, data); n != len(values) {
			t.Errorf("%v: %d components of %d labels", c.spacing, n, len(values))
		}
	}
	for _, s := range [][3]float64{{0, 4, 40}, {4, -1, 40}, {4, 4, math.NaN()}, {4, 4, math.Inf(1)}} {
		if _, err := NeuritesRasterSpaced(8, 8, 8, 4, 1, s); err == nil {
			t.Errorf("spacing %v accepted", s)
		}
	}
}

// b2i returns 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
