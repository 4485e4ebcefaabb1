package runs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl/grid/internal/gridtest"
	"github.com/cclabel/cclabel/ecl/grid/runs"
)

func TestLabelRunsMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range gridtest.ModeShapes(is3D) {
			for name, keys := range gridtest.ModePatterns(shape, rng) {
				src := gridtest.SliceKeys{Width: shape.Width, Values: keys}
				for _, conn := range conns {
					want, wantN := gridtest.BFSLabels(shape, conn, keys)
					for _, threads := range gridtest.ModeThreads {
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
