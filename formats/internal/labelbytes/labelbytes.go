// Package labelbytes writes label values as the little-endian samples of
// label files (.npy, NIfTI, NRRD): one copy of the hot packing loop for
// every writer.
package labelbytes

import "encoding/binary"

// Put writes labels into dst as little-endian unsigned samples of size
// bytes (1, 2 or 4; each label truncated to that width) and returns the
// bytes written, len(labels)*size; dst must hold them.
func Put(dst []byte, labels []uint32, size int) int {
	switch size {
	case 1:
		for i, l := range labels {
			dst[i] = byte(l)
		}
	case 2:
		for i, l := range labels {
			binary.LittleEndian.PutUint16(dst[2*i:2*i+2:2*i+2], uint16(l))
		}
	default:
		for i, l := range labels {
			binary.LittleEndian.PutUint32(dst[4*i:4*i+4:4*i+4], l)
		}
	}
	return len(labels) * size
}
