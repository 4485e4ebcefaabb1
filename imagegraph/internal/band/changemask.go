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
