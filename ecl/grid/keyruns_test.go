package grid_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl/grid"
)

// AppendRuns serves the runs of equal nonzero keys of a row.
func (s sliceKeys) AppendRuns(row int, dst []grid.KeyRun[uint32]) []grid.KeyRun[uint32] {
	keys := s.keys[row*s.width : (row+1)*s.width]
	for x := 0; x < len(keys); {
		k, start := keys[x], x
		for x < len(keys) && keys[x] == k {
			x++
		}
		if k != 0 {
			dst = append(dst, grid.KeyRun[uint32]{Start: int32(start), End: int32(x), Key: k})
		}
	}
	return dst
}

func TestLabelRunsMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range modeShapes(is3D) {
			for name, keys := range modePatterns(shape, rng) {
				src := sliceKeys{shape.Width, keys}
				for _, conn := range conns {
					want, wantN := bfsGridLabels(shape, conn, keys)
					for _, threads := range modeThreads {
						got := make([]uint32, len(keys))
						n, err := grid.LabelRuns[uint32](shape, conn, src, got, threads)
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
