package band

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestMasks32 checks DiffMasks32 and ChangeMasks32 against a loop over the
// samples, on rows of long and short runs, or that both report no kernel.
func TestMasks32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name   string
		values uint32 // samples drawn from 0..values-1
		words  int
	}{
		{"one word, two values", 2, 1},
		{"many words, few values", 3, 7},
		{"many words, many values", 1 << 20, 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := 64*c.words + 1
			a := make([]uint32, n)
			b := make([]uint32, n)
			for i := range a {
				a[i] = rng.Uint32N(c.values)
				b[i] = a[i]
				if rng.IntN(4) == 0 {
					b[i] = rng.Uint32N(c.values)
				}
			}
			got := make([]uint64, c.words)
			if !DiffMasks32(unsafe.Pointer(&a[1]), unsafe.Pointer(&b[1]), got) {
				if ChangeMasks32(unsafe.Pointer(&a[1]), got) {
					t.Fatal("ChangeMasks32 has a kernel that DiffMasks32 lacks")
				}
				t.Skip("no kernel on this machine")
			}
			for w := range c.words {
				var want uint64
				for i := range 64 {
					if x := 1 + 64*w + i; a[x] != b[x] {
						want |= 1 << i
					}
				}
				if got[w] != want {
					t.Errorf("DiffMasks32 word %d = %#x, want %#x", w, got[w], want)
				}
			}
			if !ChangeMasks32(unsafe.Pointer(&a[1]), got) {
				t.Fatal("ChangeMasks32 has no kernel")
			}
			for w := range c.words {
				var want uint64
				for i := range 64 {
					if x := 1 + 64*w + i; a[x] != a[x-1] {
						want |= 1 << i
					}
				}
				if got[w] != want {
					t.Errorf("ChangeMasks32 word %d = %#x, want %#x", w, got[w], want)
				}
			}
		})
	}
}

// TestChangeMask checks ChangeMask against a loop over the samples, for
// chunks of every length up to 64 and samples of two types.
func TestChangeMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, values := range []uint32{2, 1 << 20} {
		for n := 0; n <= 64; n++ {
			chunk := make([]uint32, n)
			wide := make([]float64, n)
			for i := range chunk {
				chunk[i] = rng.Uint32N(values)
				wide[i] = float64(chunk[i])
			}
			prev := rng.Uint32N(values)
			var want uint64
			for i, v := range chunk {
				before := prev
				if i > 0 {
					before = chunk[i-1]
				}
				if v != before {
					want |= 1 << i
				}
			}
			if got := ChangeMask(chunk, prev); got != want {
				t.Errorf("values %d, length %d: uint32 mask %#x, want %#x", values, n, got, want)
			}
			if got := ChangeMask(wide, float64(prev)); got != want {
				t.Errorf("values %d, length %d: float64 mask %#x, want %#x", values, n, got, want)
			}
		}
	}
}
