package parallel

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 4, 5, 1000, 3<<20 + 7} {
		s := make([]uint32, n)
		for i := range s {
			s[i] = rng.Uint32N(1 << 20)
		}
		if n > 0 {
			s[rng.IntN(n)] = 1<<20 + uint32(n) // the largest, somewhere
		}
		want := uint32(0)
		if n > 0 {
			want = slices.Max(s)
		}
		if got := Max(s); got != want {
			t.Errorf("n=%d: Max = %d, want %d", n, got, want)
		}
	}
}
