package grid_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestLabelBinaryMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range testkit.ModeShapes(is3D) {
			for name, keys := range testkit.ModePatterns(shape, rng) {
				binary := make([]uint32, len(keys))
				for i, k := range keys {
					binary[i] = min(k, 1)
				}
				src := keyMask{testkit.SliceKeys{Width: shape.Width, Values: keys}}
				for _, conn := range conns {
					want, wantN := testkit.BFSLabels(shape, conn, binary)
					for _, threads := range testkit.ModeThreads {
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
