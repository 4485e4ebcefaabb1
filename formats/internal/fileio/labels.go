package fileio

import (
	"encoding/binary"
	"unsafe"
)

// PutLabels packs labels into dst as little-endian samples of size bytes. The
// samples are the unsigned samples of label files (.npy, NIfTI, NRRD); size
// is 1, 2 or 4, each label truncated to that width. It returns the bytes
// written, len(labels)*size; dst must hold them. It is the one packing loop
// of every label writer.
func PutLabels(dst []byte, labels []uint32, size int) int {
	n, _ := packLabels(dst, labels, size)
	return n
}

// packLabels is PutLabels, also returning the bitwise or of the labels
// for samples of 1 or 2 bytes (0 for 4), whose bits above the samples'
// width tell whether one was truncated.
func packLabels(dst []byte, labels []uint32, size int) (n int, or uint32) {
	switch size {
	case 1:
		for i, l := range labels {
			dst[i] = byte(l)
			or |= l
		}
	case 2:
		or = putLabels16(dst, labels)
	default:
		if !hostBigEndian && len(labels) > 0 {
			// The labels' own memory is the samples.
			copy(dst[:4*len(labels)], unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(labels))), 4*len(labels)))
			break
		}
		for i, l := range labels {
			binary.LittleEndian.PutUint32(dst[4*i:4*i+4:4*i+4], l)
		}
	}
	return len(labels) * size, or
}

// putLabels16 packs labels into dst as little-endian uint16 samples, four
// to one 8-byte store, and returns their bitwise or.
func putLabels16(dst []byte, labels []uint32) (or uint32) {
	dst = dst[:2*len(labels)]
	i := 0
	for ; i+4 <= len(labels); i += 4 {
		l := labels[i : i+4 : i+4]
		or |= l[0] | l[1] | l[2] | l[3]
		v := uint64(uint16(l[0])) | uint64(uint16(l[1]))<<16 | uint64(uint16(l[2]))<<32 | uint64(uint16(l[3]))<<48
		binary.LittleEndian.PutUint64(dst[2*i:2*i+8:2*i+8], v)
	}
	for ; i < len(labels); i++ {
		or |= labels[i]
		binary.LittleEndian.PutUint16(dst[2*i:2*i+2:2*i+2], uint16(labels[i]))
	}
	return or
}
