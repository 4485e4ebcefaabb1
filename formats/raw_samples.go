package formats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/cclabel/cclabel/imagegraph"
)

// rawChunkBytes is how much encoded data the sample decoders convert at a
// time.
const rawChunkBytes = 1 << 20

// errRawShort reports that the input ended before all samples were read;
// rawSamples wraps it with the counts.
var errRawShort = errors.New("short input")

// rawSamples reads n binary samples of kind from r in the given byte
// order and returns them as the raster slice type of kind ([]uint8,
// []int16, ...). When grow is false the slice is allocated at once (the
// caller has checked that the input holds enough bytes); when it is set
// the slice grows as data arrives, so that a header promising more data
// than a compressed stream holds costs no more memory than the data
// itself. An input that ends early gives an error wrapping errRawShort
// that says how many bytes arrived.
func rawSamples(r io.Reader, kind imagegraph.SampleKind, n int, order binary.ByteOrder, grow bool) (any, error) {
	little := order == binary.ByteOrder(binary.LittleEndian)
	switch kind {
	case imagegraph.Uint8:
		return decodeRaw(r, n, 1, grow, fill8[uint8])
	case imagegraph.Int8:
		return decodeRaw(r, n, 1, grow, fill8[int8])
	case imagegraph.Uint16:
		return decodeRaw(r, n, 2, grow, fill16[uint16](little))
	case imagegraph.Int16:
		return decodeRaw(r, n, 2, grow, fill16[int16](little))
	case imagegraph.Uint32:
		return decodeRaw(r, n, 4, grow, fill32[uint32](little))
	case imagegraph.Int32:
		return decodeRaw(r, n, 4, grow, fill32[int32](little))
	case imagegraph.Uint64:
		return decodeRaw(r, n, 8, grow, fill64[uint64](little))
	case imagegraph.Int64:
		return decodeRaw(r, n, 8, grow, fill64[int64](little))
	case imagegraph.Float32:
		return decodeRaw(r, n, 4, grow, fillFloat32(little))
	case imagegraph.Float64:
		return decodeRaw(r, n, 8, grow, fillFloat64(little))
	}
	return nil, fmt.Errorf("unsupported sample kind %v", kind)
}

// decodeRaw reads n samples of size bytes each from r, converting each
// chunk with fill; see rawSamples.
func decodeRaw[T any](r io.Reader, n, size int, grow bool, fill func(dst []T, src []byte)) ([]T, error) {
	buf := make([]byte, max(size, min(rawChunkBytes/size, n)*size))
	var out []T
	if grow {
		out = make([]T, 0, min(n, rawChunkBytes))
	} else {
		out = make([]T, 0, n)
	}
	for len(out) < n {
		k := min(len(buf)/size, n-len(out))
		got, err := io.ReadFull(r, buf[:k*size])
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				have := int64(len(out))*int64(size) + int64(got)
				return nil, fmt.Errorf("%w: %d of %d bytes", errRawShort, have, int64(n)*int64(size))
			}
			return nil, err
		}
		if need := len(out) + k; need > cap(out) {
			grown := make([]T, len(out), min(n, max(need, 2*cap(out))))
			copy(grown, out)
			out = grown
		}
		fill(out[len(out):len(out)+k], buf[:k*size])
		out = out[:len(out)+k]
	}
	return out, nil
}

// fill8 converts bytes to 8-bit samples.
func fill8[T ~uint8 | ~int8](dst []T, src []byte) {
	for i := range dst {
		dst[i] = T(src[i])
	}
}

// fill16 returns a converter of 16-bit samples in the byte order.
func fill16[T ~uint16 | ~int16](little bool) func([]T, []byte) {
	if little {
		return func(dst []T, src []byte) {
			for i := range dst {
				dst[i] = T(binary.LittleEndian.Uint16(src[2*i:]))
			}
		}
	}
	return func(dst []T, src []byte) {
		for i := range dst {
			dst[i] = T(binary.BigEndian.Uint16(src[2*i:]))
		}
	}
}

// fill32 returns a converter of 32-bit integer samples in the byte order.
func fill32[T ~uint32 | ~int32](little bool) func([]T, []byte) {
	if little {
		return func(dst []T, src []byte) {
			for i := range dst {
				dst[i] = T(binary.LittleEndian.Uint32(src[4*i:]))
			}
		}
	}
	return func(dst []T, src []byte) {
		for i := range dst {
			dst[i] = T(binary.BigEndian.Uint32(src[4*i:]))
		}
	}
}

// fill64 returns a converter of 64-bit integer samples in the byte order.
func fill64[T ~uint64 | ~int64](little bool) func([]T, []byte) {
	if little {
		return func(dst []T, src []byte) {
			for i := range dst {
				dst[i] = T(binary.LittleEndian.Uint64(src[8*i:]))
			}
		}
	}
	return func(dst []T, src []byte) {
		for i := range dst {
			dst[i] = T(binary.BigEndian.Uint64(src[8*i:]))
		}
	}
}

// fillFloat32 returns a converter of float32 samples in the byte order.
func fillFloat32(little bool) func([]float32, []byte) {
	conv := fill32[uint32](little)
	return func(dst []float32, src []byte) {
		bits := make([]uint32, len(dst))
		conv(bits, src)
		for i, b := range bits {
			dst[i] = math.Float32frombits(b)
		}
	}
}

// fillFloat64 returns a converter of float64 samples in the byte order.
func fillFloat64(little bool) func([]float64, []byte) {
	conv := fill64[uint64](little)
	return func(dst []float64, src []byte) {
		bits := make([]uint64, len(dst))
		conv(bits, src)
		for i, b := range bits {
			dst[i] = math.Float64frombits(b)
		}
	}
}

// rawDtypes maps NumPy dtype names to sample kinds.
var rawDtypes = map[string]imagegraph.SampleKind{
	"uint8": imagegraph.Uint8, "int8": imagegraph.Int8,
	"uint16": imagegraph.Uint16, "int16": imagegraph.Int16,
	"uint32": imagegraph.Uint32, "int32": imagegraph.Int32,
	"uint64": imagegraph.Uint64, "int64": imagegraph.Int64,
	"float32": imagegraph.Float32, "float64": imagegraph.Float64,
}

// rawDtypeNames lists the dtypes ReadRawFile accepts, for messages.
const rawDtypeNames = "uint8, int8, uint16, int16, uint32, int32, uint64, int64, float32, float64"
