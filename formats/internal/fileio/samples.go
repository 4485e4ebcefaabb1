package fileio

import "encoding/binary"

// SwapBytes reverses the bytes of each size-byte sample in b.
func SwapBytes(b []byte, size int) {
	switch size {
	case 2:
		for i := 0; i+1 < len(b); i += 2 {
			b[i], b[i+1] = b[i+1], b[i]
		}
	case 4:
		for i := 0; i+3 < len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], binary.BigEndian.Uint32(b[i:]))
		}
	case 8:
		for i := 0; i+7 < len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], binary.BigEndian.Uint64(b[i:]))
		}
	}
}

// ToHost puts the size-byte samples of b into the machine's byte order. The
// samples are stored big-endian or little-endian and converted in place.
func ToHost(b []byte, size int, bigEndian bool) {
	if bigEndian != hostBigEndian {
		SwapBytes(b, size)
	}
}
