package band

import "unsafe"

// ChangeMasks32 writes into masks, for each whole block of 64 samples of
// the 4-byte samples from p (as many as masks holds), the bits of the
// samples that differ from the one before (the sample before p before the
// first), and returns true; or it returns false where [DiffMasks32] has
// no kernel (with no masks, it only tells). The sample before p must be
// readable.
func ChangeMasks32(p unsafe.Pointer, masks []uint64) bool {
	return DiffMasks32(p, unsafe.Add(p, -4), masks)
}

// ChangeMask returns the bits of the samples of chunk (at most 64) that
// differ from the one before (prev before the first): the portable
// [ChangeMasks32], for every sample type. It is not inlined: inlined, its
// loop would share registers with its caller's and spill.
//
//go:noinline
func ChangeMask[T comparable](chunk []T, prev T) uint64 {
	var m uint64
	k := 0
	for ; k+4 <= len(chunk); k += 4 {
		c := chunk[k : k+4 : k+4]
		m |= (b2u(c[0] != prev) | b2u(c[1] != c[0])<<1 | b2u(c[2] != c[1])<<2 | b2u(c[3] != c[2])<<3) << (k & 63)
		prev = c[3]
	}
	for ; k < len(chunk); k++ {
		m |= b2u(chunk[k] != prev) << (k & 63)
		prev = chunk[k]
	}
	return m
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
