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

func TestLabelRunsMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range testkit.ModeShapes(is3D) {
			for name, keys := range testkit.ModePatterns(shape, rng) {
				src := testkit.SliceKeys{Width: shape.Width, Values: keys}
				for _, conn := range conns {
					want, wantN := testkit.BFSLabels(shape, conn, keys)
					for _, threads := range testkit.ModeThreads {
						got := make([]uint32, len(keys))
						n, err := runs.LabelRuns[uint32](shape, conn, src, got, threads)
						if err != nil {
							t.Fatal(err)
						}
						if n != wantN || !slices.Equal(got, want) {
							t.Fatalf("%v %s c%d threads %d: %d components, want %d\n got %v\nwant %v",
								shape, name, conn, threads, n, wantN, got, want)
						}
					}
				}
			}
		}
	}
}

// TestLabelRunsCellsAllThreadCounts checks LabelRuns on dense cell
// segmentations (testkit.Cells) large enough for several bands and many
// runs a row: distinct values, and few values (touching cells of equal
// value join, so keys span several components and components several
// cells), at every connectivity and 1 to 7 threads.
func TestLabelRunsCellsAllThreadCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	cases := []struct {
		shape      grid.GridShape
		side, vals int
	}{
		{grid.GridShape{Width: 131, Height: 47, Depth: 29}, 7, 0},
		{grid.GridShape{Width: 97, Height: 33, Depth: 41}, 5, 3},
		{grid.GridShape{Width: 301, Height: 211, Depth: 1}, 6, 0},
		{grid.GridShape{Width: 300, Height: 200, Depth: 1}, 4, 2},
	}
	for _, c := range cases {
		keys := testkit.Cells(c.shape, c.side, c.vals, rng)
		src := testkit.SliceKeys{Width: c.shape.Width, Values: keys}
		conns := []int{6, 18, 26}
		if c.shape.Depth == 1 {
			conns = []int{4, 8}
		}
		for _, conn := range conns {
			want, wantN := testkit.BFSLabels(c.shape, conn, keys)
			for threads := 1; threads <= 7; threads++ {
				got := make([]uint32, len(keys))
				n, err := runs.LabelRuns[uint32](c.shape, conn, src, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%v cells side %d values %d c%d threads %d: %d components, want %d", c.shape, c.side, c.vals, conn, threads, n, wantN)
				}
			}
		}
	}
}

// TestLabelRunsManyPieces checks LabelRuns at 18 and 26-connectivity on
// label maps whose keys lie in many components of a plane, joined in
// later planes or not at all (the case keyRoots lists several roots for,
// or too many), and on EM-like neurites whose runs grow and shrink from
// row to row (the case coverAbove decides): random keys of a few values,
// smoothed so that runs are a few voxels long, and gen's neurites on
// voxels of 4, 8 and 16 nm.
func TestLabelRunsManyPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	type input struct {
		name  string
		shape grid.GridShape
		keys  []uint32
	}
	var inputs []input
	for _, vals := range []int{2, 3, 6} {
		shape := grid.GridShape{Width: 70, Height: 45, Depth: 23}
		keys := make([]uint32, shape.Width*shape.Height*shape.Depth)
		for i := range keys {
			// Runs along x of 1 to 6 voxels.
			if i%shape.Width == 0 || rng.IntN(3) == 0 {
				keys[i] = uint32(rng.IntN(vals))
			} else {
				keys[i] = keys[i-1]
			}
		}
		inputs = append(inputs, input{fmt.Sprintf("random %d values", vals), shape, keys})
	}
	for _, nm := range []float64{4, 8, 16} {
		r, err := gen.NeuritesRasterSpaced(90, 70, 30, 40, 5, [3]float64{nm, nm, 40})
		if err != nil {
			t.Fatal(err)
		}
		shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
		inputs = append(inputs, input{fmt.Sprintf("neurites %g nm", nm), shape, []uint32(r.Data.(imagegraph.Samples[uint32]))})
	}
	for _, in := range inputs {
		src := testkit.SliceKeys{Width: in.shape.Width, Values: in.keys}
		for _, conn := range []int{18, 26} {
			want, wantN := testkit.BFSLabels(in.shape, conn, in.keys)
			for _, threads := range []int{1, 2, 3} {
				got := make([]uint32, len(in.keys))
				n, err := runs.LabelRuns[uint32](in.shape, conn, src, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%s c%d threads %d: %d components, want %d", in.name, conn, threads, n, wantN)
				}
			}
		}
	}
}
