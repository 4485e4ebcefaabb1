package gridcc

import (
	"math/rand/v2"
	"testing"
)

func TestSingleValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, n := range []int{0, 1, 7, 8, 9, 255, 256, 257, 600, 1025} {
		for _, v := range []uint8{1, 0x80, 0xff} {
			d := make([]uint8, n)
			for i := range d {
				if rng.IntN(3) > 0 {
					d[i] = v
				}
			}
			if _, _, ok := scanByte(d); !ok {
				t.Fatalf("n %d value %d: not single", n, v)
			}
			for i := range d {
				for _, other := range []uint8{v ^ 1, v ^ 0x80, v + 1} {
					old := d[i]
					d[i] = other
					want := other == 0 || other == v || allZeroExcept(d, i)
					if _, _, got := scanByte(d); got != want {
						t.Fatalf("n %d value %d, %d at %d: single %v, want %v", n, v, other, i, got, want)
					}
					d[i] = old
				}
			}
		}
	}
	// Around the 64 KiB chunks of the AVX2 scan: a second value anywhere.
	for _, n := range []int{1<<16 - 1, 1 << 16, 1<<16 + 65, 3<<16 + 100} {
		d := make([]uint8, n)
		for i := range d {
			if rng.IntN(3) > 0 {
				d[i] = 7
			}
		}
		d[0] = 7
		for _, i := range []int{1, 63, 64, 1<<16 - 1, 1 << 16, n - 1, rng.IntN(n), rng.IntN(n)} {
			if i >= n {
				continue
			}
			old := d[i]
			d[i] = 9
			if _, _, got := scanByte(d); got {
				t.Fatalf("n %d, 9 at %d among 7s: single", n, i)
			}
			d[i] = old
		}
		if _, _, got := scanByte(d); !got {
			t.Fatalf("n %d, 7s only: not single", n)
		}
	}
	if _, _, ok := scanFloat([]float32{0, 2.5, float32NaN(), 2.5, 0}); !ok {
		t.Error("float32 single value scan: 2.5 only")
	}
	if _, _, ok := scanFloat([]float32{2.5, 0, 3}); ok {
		t.Error("float32 single value scan: 2.5 and 3")
	}
	if _, _, ok := scanInt([]int16{0, -1, -1, 0}); !ok {
		t.Error("int16 single value scan: -1 only")
	}
	if _, _, ok := scanInt([]int16{-1, 1}); ok {
		t.Error("int16 single value scan: -1 and 1")
	}
	// Parts: one value in one part, another in a later part; empty parts.
	big := make([]uint8, 5*singleChunk)
	big[10], big[3*singleChunk+5] = 4, 4
	for threads := 1; threads <= 5; threads++ {
		if !singleParallel(big, threads, scanByte) {
			t.Fatalf("threads %d: one value not single", threads)
		}
		big[4*singleChunk+1] = 5
		if singleParallel(big, threads, scanByte) {
			t.Fatalf("threads %d: two values single", threads)
		}
		big[4*singleChunk+1] = 0
	}
}

// allZeroExcept reports whether every sample of d but the one at i is 0.
func allZeroExcept(d []uint8, i int) bool {
	for k, x := range d {
		if k != i && x != 0 {
			return false
		}
	}
	return true
}

func float32NaN() float32 {
	z := float32(0)
	return z / z
}
