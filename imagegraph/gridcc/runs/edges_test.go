package runs

import (
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// TestKeepEdges checks that loadEdges gives back the runs that keepEdges
// kept, as column pairs or as bits, on rows of few and of many runs.
func TestKeepEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 2000 {
		width := 1 + rng.IntN(400)
		maxLen := 1 + rng.IntN(3)
		if trial%2 == 0 {
			maxLen = 1 + rng.IntN(100)
		}
		var runs []grid.KeyRun[uint32]
		for x := rng.IntN(2); x < width; {
			end := min(width, x+1+rng.IntN(maxLen))
			runs = append(runs, grid.KeyRun[uint32]{Start: int32(x), End: int32(end), Key: 1})
			x = end + rng.IntN(2) // runs may touch (other keys)
		}
		edges := make([]uint64, 2*edgeWords(width))
		n := keepEdges(edges, runs, width)
		if fits := len(runs) <= 2*len(edges); fits && n != int32(len(runs)) || !fits && n != -1 {
			t.Fatalf("trial %d: keepEdges = %d for %d runs in %d words", trial, n, len(runs), len(edges))
		}
		starts, ends := make([]int32, width+1), make([]int32, width+1)
		m := loadEdges(starts, ends, edges, n)
		if m != len(runs) {
			t.Fatalf("trial %d: loadEdges = %d runs, want %d", trial, m, len(runs))
		}
		for k, r := range runs {
			if starts[k] != r.Start || ends[k] != r.End {
				t.Fatalf("trial %d: run %d = [%d, %d), want [%d, %d)", trial, k, starts[k], ends[k], r.Start, r.End)
			}
		}
	}
}
