package parallel

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFirstIndices checks FirstIndices against a serial scan on random
// labels, with labels that do not occur and labels above the count, at
// every thread count.
func TestFirstIndices(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 6))
	for _, n := range []int{0, 1, 7, 1000, 100000} {
		for _, count := range []int{1, 5, 300} {
			labels := make([]uint32, n)
			for i := range labels {
				labels[i] = uint32(rng.IntN(count + 3)) // 0 and two above count
				if rng.IntN(4) > 0 && i > 0 {
					labels[i] = labels[i-1] // runs
				}
			}
			want := make([]int, count)
			for i := range want {
				want[i] = slices.Index(labels, uint32(i+1))
			}
			for _, threads := range []int{1, 3, 8} {
				if got := FirstIndices(labels, count, threads); !slices.Equal(got, want) {
					t.Fatalf("n %d, count %d, %d threads: %v, want %v", n, count, threads, got, want)
				}
			}
		}
	}
}
