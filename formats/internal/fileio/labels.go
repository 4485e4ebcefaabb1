package fileio

import "encoding/binary"

// PutLabels packs labels into dst as little-endian samples of size bytes. The
// samples are the unsigned samples of label files (.npy, NIfTI, NRRD); size
// is 1, 2 or 4, each label truncated to that width. It returns the bytes
// written, len(labels)*size; dst must hold them. It is the one packing loop
// of every label writer.
func PutLabels(dst []byte, labels []uint32, size int) int {
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
