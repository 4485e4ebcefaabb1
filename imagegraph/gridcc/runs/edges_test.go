package runs

import (
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// TestKeepEdges checks that loadEdges gives back the runs that keepEdges
// kept, as bounds, column pairs or bits, on rows of few and of many runs,
// touching or not.
func TestKeepEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 2000 {
		width := 1 + rng.IntN(400)
		if trial%100 == 0 {
			width = 65536 + rng.IntN(1000) // columns past 16 bits
		}
		maxLen := 1 + rng.IntN(3)
		if trial%2 == 0 {
			maxLen = 1 + rng.IntN(100)
		}
		var runs []grid.KeyRun[uint32]
		for x := rng.IntN(2); x < width; {
			end := min(width, x+1+rng.IntN(maxLen))
			runs = append(runs, grid.KeyRun[uint32]{Start: int32(x), End: int32(end), Key: 1})
			x = end + rng.IntN(2) // runs may touch (other keys)
			if trial%3 == 0 {
				x = end // rows of label maps: every run touches the next
			}
		}
		edges := make([]uint64, 2*edgeWords(width))
		n := keepEdges(edges, runs, width)
		touch := true
		for k := 1; k < len(runs); k++ {
			touch = touch && runs[k].Start == runs[k-1].End
		}
		want := int32(-1)
		switch {
		case len(runs) == 0:
			want = 0
		case width > 65535:
		case touch && len(runs) < 4*len(edges):
			want = -2 - int32(len(runs))
		case len(runs) <= 2*len(edges):
			want = int32(len(runs))
		}
		if n != want {
			t.Fatalf("trial %d: keepEdges = %d for %d runs (touching: %v) in %d words, want %d", trial, n, len(runs), touch, len(edges), want)
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
