//go:build !purego

package gridcc

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// changeMasks32 writes into masks, for each whole block of 64 samples of
// the 4-byte samples from p (as many as masks holds), the bits of the
// samples that differ from the one before (the sample before p before the
// first), and returns true; or it returns false where AVX2 is missing
// (with no masks, it only tells).
// The sample before p must be readable.
func changeMasks32(p unsafe.Pointer, masks []uint64) bool {
	if !cpu.X86.HasAVX2 {
		return false
	}
	if len(masks) > 0 {
		changeMasks32AVX2(p, len(masks), &masks[0])
	}
	return true
}

// changeMasks32AVX2 is changeMasks32 for words blocks, eight samples a
// compare.
//
//go:noescape
func changeMasks32AVX2(p unsafe.Pointer, words int, masks *uint64)
