//go:build !purego

package measure

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasKeyExtremes32 reports whether keyExtremes32AVX2 can run.
var hasKeyExtremes32 = cpu.X86.HasAVX2

// keyExtremes32AVX2 takes the order keys of floatExtremes32 of blocks
// blocks of 16 float32 bits from p, and lowers the eight lanes of lo and
// raises those of hi to their least and greatest.
//
//go:noescape
func keyExtremes32AVX2(p unsafe.Pointer, blocks int, lo, hi *[8]uint32)
