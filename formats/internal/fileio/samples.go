package fileio

import (
	"encoding/binary"
	"math"
)

// SubSamples returns samples lo to hi of a raster sample slice ([]uint8,
// []int16, ...), sharing its memory with the capacity capped at hi; data
// of another type is returned as it is.
func SubSamples(data any, lo, hi int) any {
	switch s := data.(type) {
	case []uint8:
		return s[lo:hi:hi]
	case []uint16:
		return s[lo:hi:hi]
	case []uint32:
		return s[lo:hi:hi]
	case []uint64:
		return s[lo:hi:hi]
	case []int8:
		return s[lo:hi:hi]
	case []int16:
		return s[lo:hi:hi]
	case []int32:
		return s[lo:hi:hi]
	case []int64:
		return s[lo:hi:hi]
	case []float32:
		return s[lo:hi:hi]
	case []float64:
		return s[lo:hi:hi]
	}
	return data
}

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

// DecodeInt8 converts bytes to int8 samples.
func DecodeInt8(dst []int8, src []byte) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = int8(src[i])
	}
}

// DecodeLE16 converts little-endian 16-bit samples.
func DecodeLE16[T ~uint16 | ~int16](dst []T, src []byte) {
	for i := range dst {
		dst[i] = T(binary.LittleEndian.Uint16(src[2*i : 2*i+2 : 2*i+2]))
	}
}

// DecodeLE32 converts little-endian 32-bit integer samples.
func DecodeLE32[T ~uint32 | ~int32](dst []T, src []byte) {
	for i := range dst {
		dst[i] = T(binary.LittleEndian.Uint32(src[4*i : 4*i+4 : 4*i+4]))
	}
}

// DecodeLE64 converts little-endian 64-bit integer samples.
func DecodeLE64[T ~uint64 | ~int64](dst []T, src []byte) {
	for i := range dst {
		dst[i] = T(binary.LittleEndian.Uint64(src[8*i : 8*i+8 : 8*i+8]))
	}
}

// DecodeLEFloat32 converts little-endian float32 samples.
func DecodeLEFloat32(dst []float32, src []byte) {
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i : 4*i+4 : 4*i+4]))
	}
}

// DecodeLEFloat64 converts little-endian float64 samples.
func DecodeLEFloat64(dst []float64, src []byte) {
	for i := range dst {
		dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i : 8*i+8 : 8*i+8]))
	}
}
