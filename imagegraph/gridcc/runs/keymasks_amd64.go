//go:build !purego

package runs

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// keyMasksWords writes, where AVX2 is present, the masks of keyMasks for
// the whole blocks of 64 keys from c (as many as out holds groups of four
// words), and returns how many blocks it wrote; with noUp, all but the
// words comparing c with u.
func keyMasksWords(c, u, d, n unsafe.Pointer, out []uint64, noUp bool) int {
	words := len(out) / 4
	if !cpu.X86.HasAVX2 || words == 0 {
		return 0
	}
	if noUp {
		keyMasks32NoUpAVX2(c, d, n, words, &out[0])
	} else {
		keyMasks32AVX2(c, u, d, n, words, &out[0])
	}
	return words
}

// keyMasks32AVX2 is keyMasksWords for words blocks, eight keys a compare.
//
//go:noescape
func keyMasks32AVX2(c, u, d, n unsafe.Pointer, words int, out *uint64)

// keyMasks32NoUpAVX2 is keyMasks32AVX2 without the words comparing c with
// u, which it leaves as they are.
//
//go:noescape
func keyMasks32NoUpAVX2(c, d, n unsafe.Pointer, words int, out *uint64)
