package grid_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
)

// keyMask serves the nonzero keys of testkit.SliceKeys as bit masks.
type keyMask struct{ testkit.SliceKeys }

func (m keyMask) Mask(row int, dst []uint64) {
	clear(dst)
	for x, k := range m.Values[row*m.Width : (row+1)*m.Width] {
		if k != 0 {
			dst[x/64] |= 1 << (x % 64)
		}
	}
}

func TestLabelBinary8MatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := append(testkit.AwkwardShapes(false),
		grid.GridShape{Width: 64, Height: 9, Depth: 1}, grid.GridShape{Width: 65, Height: 8, Depth: 1},
		grid.GridShape{Width: 127, Height: 33, Depth: 1}, grid.GridShape{Width: 200, Height: 129, Depth: 1},
		grid.GridShape{Width: 4097, Height: 3, Depth: 1}, grid.GridShape{Width: 3, Height: 301, Depth: 1})
	for _, shape := range shapes {
		patterns := testkit.Patterns(shape, rng)
		for _, p := range []float64{0.1, 0.4, 0.6, 0.8} {
			k := make([]uint32, shape.Len())
			for i := range k {
				if rng.Float64() < p {
					k[i] = 1
				}
			}
			patterns["p"+string(rune('0'+int(p*10)))] = k
		}
		for name, keys := range patterns {
			binary := make([]uint32, len(keys))
			for i, k := range keys {
				binary[i] = min(k, 1)
			}
			want, wantN := testkit.BFSLabels(shape, 8, binary)
			for _, threads := range []int{1, 2, 3, 7} {
				got := make([]uint32, len(keys))
				n, err := grid.LabelBinary8(shape.Width, shape.Height, keyMask{testkit.SliceKeys{Width: shape.Width, Values: keys}}, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%v %s threads %d: %d components, want %d\n got %v\nwant %v",
						shape, name, threads, n, wantN, got, want)
				}
			}
		}
	}
}

func TestByteMaskSWAR(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, w := range []int{1, 7, 8, 9, 63, 64, 65, 130} {
		pix := make([]uint8, w)
		for i := range pix {
			if rng.IntN(2) == 0 {
				pix[i] = uint8(rng.IntN(256))
			}
		}
		got := make([]uint64, (w+63)/64)
		byteMaskKeys{w, pix}.Mask(0, got)
		for x, p := range pix {
			if bit := got[x/64] >> (x % 64) & 1; (bit == 1) != (p != 0) {
				t.Fatalf("width %d pixel %d: bit %d for value %d", w, x, bit, p)
			}
		}
	}
}

func TestLabelBinary26MatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	shapes := append(testkit.AwkwardShapes(true),
		grid.GridShape{Width: 64, Height: 5, Depth: 9}, grid.GridShape{Width: 65, Height: 4, Depth: 8},
		grid.GridShape{Width: 31, Height: 17, Depth: 13}, grid.GridShape{Width: 3, Height: 2, Depth: 41},
		grid.GridShape{Width: 130, Height: 7, Depth: 5}, grid.GridShape{Width: 9, Height: 1, Depth: 12})
	for _, shape := range shapes {
		patterns := testkit.Patterns(shape, rng)
		for _, p := range []float64{0.05, 0.15, 0.3, 0.6} {
			k := make([]uint32, shape.Len())
			for i := range k {
				if rng.Float64() < p {
					k[i] = 1
				}
			}
			patterns["p"+string(rune('0'+int(p*20)))] = k
		}
		for name, keys := range patterns {
			binary := make([]uint32, len(keys))
			for i, k := range keys {
				binary[i] = min(k, 1)
			}
			want, wantN := testkit.BFSLabels(shape, 26, binary)
			for _, threads := range []int{1, 2, 3, 7} {
				got := make([]uint32, len(keys))
				n, err := grid.LabelBinary26(shape.Width, shape.Height, shape.Depth, keyMask{testkit.SliceKeys{Width: shape.Width, Values: keys}}, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%v %s threads %d: %d components, want %d", shape, name, threads, n, wantN)
				}
			}
		}
	}
}
