package runs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
	"github.com/cclabel/cclabel/internal/testkit"
)

// memKeys serves testkit.SliceKeys' rows as keys in memory too, which
// LabelRuns links volumes at 26-connectivity from.
type memKeys struct{ testkit.SliceKeys }

func (m memKeys) KeyRow32(row int) []uint32 {
	return m.Values[row*m.Width : (row+1)*m.Width]
}

// TestLabelRunsKeyMasksMatchesBFS checks LabelRuns on volumes whose keys
// lie in memory (linked from masks of equal keys at 26-connectivity)
// against BFS: the mode patterns, cells of few and of distinct values,
// random keys of runs a few voxels long, and gen's neurites, with widths
// around and across 64-column words, at 1 to 4 threads.
func TestLabelRunsKeyMasksMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	type input struct {
		name  string
		shape grid.GridShape
		keys  []uint32
	}
	var inputs []input
	for _, shape := range testkit.ModeShapes(true) {
		for name, keys := range testkit.ModePatterns(shape, rng) {
			inputs = append(inputs, input{name, shape, keys})
		}
	}
	for _, c := range []struct {
		shape      grid.GridShape
		side, vals int
	}{
		{grid.GridShape{Width: 131, Height: 47, Depth: 29}, 7, 0},
		{grid.GridShape{Width: 64, Height: 33, Depth: 41}, 5, 3},
		{grid.GridShape{Width: 129, Height: 20, Depth: 30}, 3, 2},
	} {
		inputs = append(inputs, input{fmt.Sprintf("cells %d %d", c.side, c.vals), c.shape, testkit.Cells(c.shape, c.side, c.vals, rng)})
	}
	for _, width := range []int{1, 2, 63, 64, 65, 128, 200} {
		for _, vals := range []int{2, 3, 6} {
			shape := grid.GridShape{Width: width, Height: 19, Depth: 17}
			keys := make([]uint32, shape.Width*shape.Height*shape.Depth)
			for i := range keys {
				if i%shape.Width == 0 || rng.IntN(3) == 0 {
					keys[i] = uint32(rng.IntN(vals))
				} else {
					keys[i] = keys[i-1]
				}
			}
			inputs = append(inputs, input{fmt.Sprintf("random %d wide %d values", width, vals), shape, keys})
		}
	}
	for _, nm := range []float64{4, 16} {
		r, err := gen.NeuritesRasterSpaced(150, 70, 30, 40, 5, [3]float64{nm, nm, 40})
		if err != nil {
			t.Fatal(err)
		}
		shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
		inputs = append(inputs, input{fmt.Sprintf("neurites %g nm", nm), shape, []uint32(r.Data.(imagegraph.Samples[uint32]))})
	}
	for _, in := range inputs {
		src := memKeys{testkit.SliceKeys{Width: in.shape.Width, Values: in.keys}}
		for _, conn := range []int{6, 18, 26} {
			want, wantN := testkit.BFSLabels(in.shape, conn, in.keys)
			for _, threads := range []int{1, 2, 4} {
				got := make([]uint32, len(in.keys))
				n, err := runs.LabelRuns[uint32](in.shape, conn, src, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%s %v c%d threads %d: %d components, want %d", in.name, in.shape, conn, threads, n, wantN)
				}
			}
		}
	}
}

// TestLabelRunsMixedPlanesMatchesBFS checks LabelRuns at 26-connectivity
// with keys in memory against BFS on volumes whose planes alternate in
// blocks between Voronoi cells (linked by walking the runs) and random
// short runs (linked from masks), so that the way changes within a band
// both ways.
func TestLabelRunsMixedPlanesMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for _, c := range []struct {
		shape grid.GridShape
		block int // planes of each kind in turn
	}{
		{grid.GridShape{Width: 97, Height: 61, Depth: 80}, 20},
		{grid.GridShape{Width: 64, Height: 70, Depth: 90}, 3},
		{grid.GridShape{Width: 130, Height: 50, Depth: 70}, 35},
	} {
		shape := c.shape
		keys := testkit.Cells(shape, 30, 0, rng)
		plane := shape.Width * shape.Height
		for z := range shape.Depth {
			if z/c.block%2 == 0 {
				continue
			}
			for i := z * plane; i < (z+1)*plane; i++ {
				if i%shape.Width == 0 || rng.IntN(3) == 0 {
					keys[i] = uint32(rng.IntN(4))
				} else {
					keys[i] = keys[i-1]
				}
			}
		}
		want, wantN := testkit.BFSLabels(shape, 26, keys)
		src := memKeys{testkit.SliceKeys{Width: shape.Width, Values: keys}}
		for _, threads := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%v/block%d/threads%d", shape, c.block, threads), func(t *testing.T) {
				got := make([]uint32, len(keys))
				n, err := runs.LabelRuns[uint32](shape, 26, src, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%d components, want %d; labels differ: %v", n, wantN, !slices.Equal(got, want))
				}
			})
		}
	}
}
