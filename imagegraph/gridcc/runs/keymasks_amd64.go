//go:build !purego

package runs

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// keyMasksWords writes, where AVX2 is present, keyMasks' words of the
// nonzero keys of c and of their comparisons with d and n for the whole
// blocks of 64 keys from c (as many as out holds groups of four words),
// leaving the words comparing with the row above as they are, and returns
// how many blocks it wrote.
func keyMasksWords(c, d, n unsafe.Pointer, out []uint64) int {
	words := len(out) / 4
	if !cpu.X86.HasAVX2 || words == 0 {
		return 0
	}
	keyMasks32AVX2(c, d, n, words, &out[0])
	return words
}

// keyMasks32AVX2 is keyMasksWords for words blocks, eight keys a compare.
//
//go:noescape
func keyMasks32AVX2(c, d, n unsafe.Pointer, words int, out *uint64)
