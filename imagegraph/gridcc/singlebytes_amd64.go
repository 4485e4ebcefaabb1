//go:build !purego

package gridcc

import "golang.org/x/sys/cpu"

// otherBytes reports whether d holds a byte other than 0 and v, for the
// whole blocks of 64 bytes of d, and how many bytes it looked at: none
// where AVX2 is missing.
func otherBytes(d []uint8, v uint8) (bool, int) {
	blocks := len(d) / 64
	if !cpu.X86.HasAVX2 || blocks == 0 {
		return false, 0
	}
	return otherBytesAVX2(&d[0], blocks, v), blocks * 64
}

// otherBytesAVX2 is otherBytes for blocks blocks of 64 bytes.
//
//go:noescape
func otherBytesAVX2(d *byte, blocks int, v byte) bool
