//go:build !purego

package runs

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// keyMasksWords writes, where AVX2 is present, the masks of keyMasks for
// the whole blocks of 64 keys from c (as many as out holds groups of four
// words), and returns how many blocks it wrote.
func keyMasksWords(c, u, d, n unsafe.Pointer, out []uint64) int {
	words := len(out) / 4
	if !cpu.X86.HasAVX2 || words == 0 {
		return 0
	}
	keyMasks32AVX2(c, u, d, n, words, &out[0])
	return words
}

// keyMasks32AVX2 is keyMasksWords for words blocks, eight keys a compare.
//
//go:noescape
func keyMasks32AVX2(c, u, d, n unsafe.Pointer, words int, out *uint64)
