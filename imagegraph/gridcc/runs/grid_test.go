package runs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestLabelGridMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range testkit.AwkwardShapes(is3D) {
			for name, keys := range testkit.Patterns(shape, rng) {
				for _, conn := range conns {
					want, wantN := testkit.BFSLabels(shape, conn, keys)
					for _, threads := range []int{1, 2, 3, 8} {
						got := make([]uint32, len(keys))
						n, err := runs.LabelGrid(shape, conn, grid.KeyRows[uint32](testkit.SliceKeys{Width: shape.Width, Values: keys}), got, threads)
						if err != nil {
							t.Fatal(err)
						}
						if n != wantN || !slices.Equal(got, want) {
							t.Fatalf("%v %s conn %d threads %d: %d components, want %d\n got %v\nwant %v",
								shape, name, conn, threads, n, wantN, got, want)
						}
					}
				}
			}
		}
	}
}

func TestLabelGridLargeRandomAllThreadCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		shape grid.GridShape
		conn  int
	}{
		{grid.GridShape{Width: 257, Height: 311, Depth: 1}, 8},
		{grid.GridShape{Width: 300, Height: 200, Depth: 1}, 4},
		{grid.GridShape{Width: 4097, Height: 3, Depth: 1}, 8},
		{grid.GridShape{Width: 3, Height: 4097, Depth: 1}, 4},
		{grid.GridShape{Width: 33, Height: 29, Depth: 31}, 26},
		{grid.GridShape{Width: 40, Height: 30, Depth: 20}, 6},
		{grid.GridShape{Width: 17, Height: 19, Depth: 64}, 18},
	}
	for _, c := range cases {
		for _, p := range []float64{0.3, 0.5, 0.6} {
			keys := make([]uint32, c.shape.Len())
			for i := range keys {
				if rng.Float64() < p {
					keys[i] = 1 + uint32(rng.IntN(2))
				}
			}
			want, wantN := testkit.BFSLabels(c.shape, c.conn, keys)
			for threads := 1; threads <= 8; threads++ {
				got := make([]uint32, len(keys))
				n, err := runs.LabelGrid[uint32](c.shape, c.conn, testkit.SliceKeys{Width: c.shape.Width, Values: keys}, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%v conn %d p %.1f threads %d: %d components, want %d", c.shape, c.conn, p, threads, n, wantN)
				}
			}
		}
	}
}

func TestLabelGridErrors(t *testing.T) {
	keys := testkit.SliceKeys{Width: 2, Values: make([]uint32, 4)}
	for _, c := range []struct {
		shape grid.GridShape
		conn  int
		n     int
	}{
		{grid.GridShape{Width: 2, Height: 2, Depth: 1}, 6, 4},
		{grid.GridShape{Width: 2, Height: 1, Depth: 2}, 8, 4},
		{grid.GridShape{Width: 0, Height: 2, Depth: 1}, 4, 0},
		{grid.GridShape{Width: 2, Height: 2, Depth: 1}, 4, 3},
	} {
		if _, err := runs.LabelGrid[uint32](c.shape, c.conn, keys, make([]uint32, c.n), 1); err == nil {
			t.Errorf("%v conn %d with %d labels: no error", c.shape, c.conn, c.n)
		}
	}
}
