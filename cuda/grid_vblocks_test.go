package cuda

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestLabelGridValueBlocksMatchesCPU labels multilabel volumes at
// 26-connectivity on the value-block kernels (vertices per value of a
// 2x2x2 block) against the CPU: random maps of few and many values,
// patches, Voronoi cells with walls (gen.CellsRaster), all foreground,
// checkerboards and blocks whose 8 voxels all differ, on shapes that cut
// the 64x16x16 tiles and the 2x2x2 blocks unevenly.
func TestLabelGridValueBlocksMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	shapes := [][3]int{{1, 1, 2}, {2, 2, 2}, {7, 5, 3}, {1, 33, 40}, {4097, 3, 2}, {65, 17, 17}, {128, 32, 32},
		{129, 33, 34}, {131, 67, 45}, {200, 100, 70}}
	for si, s := range shapes {
		n := s[0] * s[1] * s[2]
		rng := rand.New(rand.NewPCG(uint64(si), 26))
		inputs := map[string][]uint32{}
		for _, p := range []float64{0.3, 0.9, 1} {
			for _, values := range []int{2, 3, 1000} {
				v := make([]uint32, n)
				for i := range v {
					if rng.Float64() < p {
						v[i] = uint32(1 + rng.IntN(values))
					}
				}
				inputs[fmt.Sprintf("random p=%.1f values=%d", p, values)] = v
			}
		}
		for _, values := range []int{2, 7, 5000} { // patches of one value, a fifth background
			px, py, pz := 1+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(3)
			patch := map[[3]int]uint32{}
			v := make([]uint32, n)
			for i := range v {
				k := [3]int{i % s[0] / px, i / s[0] % s[1] / py, i / (s[0] * s[1]) / pz}
				x, ok := patch[k]
				if !ok {
					if rng.IntN(5) > 0 {
						x = uint32(1 + rng.IntN(values))
					}
					patch[k] = x
				}
				v[i] = x
			}
			inputs[fmt.Sprintf("patches %d,%d,%d values=%d", px, py, pz, values)] = v
		}
		for _, cells := range []int{4, 60, max(1, n/64)} {
			r, err := gen.CellsRaster(s[0], s[1], s[2], min(cells, n), uint64(si))
			if err != nil {
				t.Fatal(err)
			}
			inputs[fmt.Sprintf("cells %d", cells)] = r.Data.(imagegraph.Samples[uint32])
		}
		checker, distinct, corners, stripes := make([]uint32, n), make([]uint32, n), make([]uint32, n), make([]uint32, n)
		for i := range checker {
			x, y, z := i%s[0], i/s[0]%s[1], i/(s[0]*s[1])
			checker[i] = uint32(1 + (x+y+z)%2)
			distinct[i] = uint32(1 + i)
			corners[i] = uint32(1 + x%2 + 2*(y%2) + 4*(z%2))
			stripes[i] = uint32((x + 2*y + 3*z) % 4)
		}
		inputs["checker"], inputs["distinct"], inputs["corners"], inputs["stripes"] = checker, distinct, corners, stripes
		for name, v := range inputs {
			u16 := make([]uint16, n)
			fits := true
			for i, x := range v {
				u16[i] = uint16(x)
				fits = fits && x < 1<<16
			}
			var rasters []*imagegraph.Raster
			if fits && si%2 == 0 {
				rasters = multilabelRasters(t, s, u16)
			} else {
				r, err := imagegraph.NewRaster(s[0], s[1], s[2], v)
				if err != nil {
					t.Fatal(err)
				}
				rasters = []*imagegraph.Raster{r}
			}
			for _, r := range rasters {
				checkValueBlocksOnGPU(t, c, r, 26, rule, fmt.Sprintf("%v %v %s", s, r.Kind, name))
			}
		}
	}
}

// TestLabelGridValueBlocksOneValue runs the value-block kernels on maps
// of one value (float32 samples take no single-value check, so they do
// not go to the binary block kernels).
func TestLabelGridValueBlocksOneValue(t *testing.T) {
	c := gpuContext(t)
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	for si, s := range [][3]int{{1, 1, 2}, {3, 3, 3}, {65, 17, 17}, {257, 40, 33}} {
		n := s[0] * s[1] * s[2]
		rng := rand.New(rand.NewPCG(uint64(si), 1))
		for _, p := range []float64{0.2, 0.5, 1} {
			f := make([]float32, n)
			for i := range f {
				if rng.Float64() < p {
					f[i] = 2.5
				}
			}
			r, err := imagegraph.NewRaster(s[0], s[1], s[2], f)
			if err != nil {
				t.Fatal(err)
			}
			checkValueBlocksOnGPU(t, c, r, 26, rule, fmt.Sprintf("%v f32 one value p=%.1f", s, p))
		}
	}
}

// TestLabelGridCellsMatchesCPU labels larger cells volumes (the benchmark
// input's kind) as LabelGrid does (the run kernels) at 6, 18 and 26, and
// at 26 on the tile and value-block kernels.
func TestLabelGridCellsMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	for _, s := range [][4]int{{256, 256, 256, 500}, {301, 203, 97, 300}, {64, 512, 130, 2000}} {
		r, err := gen.CellsRaster(s[0], s[1], s[2], s[3], 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, conn := range []int{6, 18, 26} {
			checkGridOnGPU(t, c, r, conn, rule, fmt.Sprintf("cells %v c%d", s, conn))
		}
		checkTilesOnGPU(t, c, r, 26, rule, fmt.Sprintf("tiles, cells %v", s))
		checkValueBlocksOnGPU(t, c, r, 26, rule, fmt.Sprintf("value blocks, cells %v", s))
	}
}
