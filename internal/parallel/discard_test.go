package parallel

import "testing"

// TestDiscardLeavesNeighboursAlone checks that discarding a buffer's
// interior pages does not touch memory outside it.
func TestDiscardLeavesNeighboursAlone(t *testing.T) {
	for _, threads := range []int{1, 3} {
		big := make([]byte, 2*HugeMinBytes+12345)
		for i := range big {
			big[i] = 7
		}
		inner := big[5000 : len(big)-5000]
		Discard(inner, threads)
		for _, i := range []int{0, 4999, len(big) - 5000, len(big) - 1} {
			if big[i] != 7 {
				t.Fatalf("%d threads: byte %d outside the discarded buffer changed", threads, i)
			}
		}
		if !canDiscard {
			continue
		}
		// The page-aligned interior reads as zeros.
		zeros := 0
		for _, c := range inner {
			if c == 0 {
				zeros++
			}
		}
		if zeros < len(inner)-2*4096 {
			t.Errorf("%d threads: %d of %d bytes were freed", threads, zeros, len(inner))
		}
	}
}
