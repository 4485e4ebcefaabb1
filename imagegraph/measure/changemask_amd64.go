//go:build !purego

package measure

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasChangeMasks32 reports whether changeMasks32AVX2 can run.
var hasChangeMasks32 = cpu.X86.HasAVX2

// changeMasks32AVX2 writes into masks, for each of words blocks of 64
// 4-byte samples from p, the bits of the samples that differ from the one
// before (the sample before p before the first), eight samples a compare.
// The sample before p must be readable.
//
//go:noescape
func changeMasks32AVX2(p unsafe.Pointer, words int, masks *uint64)
