//go:build !purego

package band

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// DiffMasks32 writes into masks, for each whole block of 64 samples of
// the 4-byte samples from a (as many as masks holds), the bits of the
// samples that differ from those of b, and returns true; or it returns
// false where AVX2 is missing.
func DiffMasks32(a, b unsafe.Pointer, masks []uint64) bool {
	if !cpu.X86.HasAVX2 {
		return false
	}
	if len(masks) > 0 {
		diffMasks32AVX2(a, b, len(masks), &masks[0])
	}
	return true
}

// diffMasks32AVX2 is DiffMasks32 for words blocks, eight samples a
// compare.
//
//go:noescape
func diffMasks32AVX2(a, b unsafe.Pointer, words int, masks *uint64)
