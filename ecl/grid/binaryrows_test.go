package grid_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl/grid"
)

// modeShapes are the awkward sizes of the run labelers' tests: single
// pixels, single rows and columns, primes, word edges, and thin volumes.
func modeShapes(is3D bool) []grid.GridShape {
	if !is3D {
		return []grid.GridShape{{1, 1, 1}, {1, 37, 1}, {37, 1, 1}, {2, 2, 1}, {13, 7, 1}, {63, 5, 1},
			{64, 9, 1}, {65, 8, 1}, {128, 4, 1}, {129, 17, 1}, {257, 311, 1}, {4097, 3, 1}, {3, 4097, 1}}
	}
	return []grid.GridShape{{1, 1, 2}, {1, 1, 37}, {37, 1, 2}, {1, 19, 3}, {2, 129, 33}, {13, 11, 7},
		{7, 5, 11}, {64, 3, 5}, {65, 4, 8}, {130, 7, 5}, {3, 2, 41}, {9, 1, 12}, {31, 17, 13}}
}

// modePatterns are gridPatterns plus random masks of several densities
// and few or many distinct values.
func modePatterns(shape grid.GridShape, rng *rand.Rand) map[string][]uint32 {
	out := gridPatterns(shape, rng)
	n := shape.Len()
	for _, p := range []float64{0.05, 0.2, 0.4, 0.6, 0.8, 0.95} {
		k := make([]uint32, n)
		for i := range k {
			if rng.Float64() < p {
				k[i] = 1
			}
		}
		out[fmt.Sprintf("p%.2f", p)] = k
	}
	few, many := make([]uint32, n), make([]uint32, n)
	for i := range few {
		if rng.Float64() < 0.8 {
			few[i] = 1 + uint32(rng.IntN(2))
		}
		many[i] = uint32(rng.IntN(1 << 20))
	}
	out["few"], out["many"] = few, many
	w, h := shape.Width, shape.Height
	fill := func(name string, f func(x, y, z int) uint32) {
		k := make([]uint32, n)
		for i := range k {
			k[i] = f(i%w, i/w%h, i/(w*h))
		}
		out[name] = k
	}
	fill("rowstripes", func(_, y, z int) uint32 { return uint32((y + z) % 2) })
	fill("colstripes", func(x, _, _ int) uint32 { return uint32(x % 2) })
	fill("diagonals", func(x, y, z int) uint32 { return uint32(min(1, (x+2*y+3*z)%4)) })
	fill("blocks", func(x, y, z int) uint32 { return uint32((x/3+y/2+z/2)%3) * 7 })
	return out
}

// modeThreads are the thread counts every run labeler is checked with.
var modeThreads = []int{1, 2, 3, 4, 7}

func TestLabelBinaryMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range modeShapes(is3D) {
			for name, keys := range modePatterns(shape, rng) {
				binary := make([]uint32, len(keys))
				for i, k := range keys {
					binary[i] = min(k, 1)
				}
				src := keyMask{sliceKeys{shape.Width, keys}}
				for _, conn := range conns {
					want, wantN := bfsGridLabels(shape, conn, binary)
					for _, threads := range modeThreads {
						for _, f := range []struct {
							name  string
							label func(grid.GridShape, int, grid.MaskRows, []uint32, int) (int, error)
						}{{"LabelBinary", grid.LabelBinary}, {"rows", grid.LabelBinaryRows}} {
							got := make([]uint32, len(keys))
							n, err := f.label(shape, conn, src, got, threads)
							if err != nil {
								t.Fatal(err)
							}
							if n != wantN || !slices.Equal(got, want) {
								t.Fatalf("%s %v %s c%d threads %d: %d components, want %d\n got %v\nwant %v",
									f.name, shape, name, conn, threads, n, wantN, got, want)
							}
						}
					}
				}
			}
		}
	}
}
