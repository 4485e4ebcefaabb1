package raw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
)

// rawChunkBytes is how much encoded data the sample decoders convert at a
// time.
const rawChunkBytes = 1 << 20

// ErrShort reports that the input ended before all samples were read;
// ReadSamples wraps it with the counts.
var ErrShort = errors.New("short input")

// ReadSamples reads n binary samples of kind from r in the given byte
// order and returns them as the raster slice type of kind ([]uint8,
// []int16, ...). When grow is false the slice is allocated at once (the
// caller has checked that the input holds enough bytes); when it is set
// the slice grows as data arrives, so that a header promising more data
// than a compressed stream holds costs no more memory than the data
// itself. An input that ends early gives an error wrapping ErrShort
// that says how many bytes arrived.
func ReadSamples(r io.Reader, kind imagegraph.SampleKind, n int, order binary.ByteOrder, grow bool) (any, error) {
	little := order == binary.ByteOrder(binary.LittleEndian)
	switch kind {
	case imagegraph.Uint8:
		return rawDecode(r, n, 1, grow, rawFill8[uint8])
	case imagegraph.Int8:
		return rawDecode(r, n, 1, grow, rawFill8[int8])
	case imagegraph.Uint16:
		return rawDecode(r, n, 2, grow, rawFill16[uint16](little))
	case imagegraph.Int16:
		return rawDecode(r, n, 2, grow, rawFill16[int16](little))
	case imagegraph.Uint32:
		return rawDecode(r, n, 4, grow, rawFill32[uint32](little))
	case imagegraph.Int32:
		return rawDecode(r, n, 4, grow, rawFill32[int32](little))
	case imagegraph.Uint64:
		return rawDecode(r, n, 8, grow, rawFill64[uint64](little))
	case imagegraph.Int64:
		return rawDecode(r, n, 8, grow, rawFill64[int64](little))
	case imagegraph.Float32:
		return rawDecode(r, n, 4, grow, rawFillFloat32(little))
	case imagegraph.Float64:
		return rawDecode(r, n, 8, grow, rawFillFloat64(little))
	}
	return nil, fileio.Unsupportedf("unsupported sample kind %v", kind)
}

// rawDecode reads n samples of size bytes each from r, converting each
// chunk with fill; see ReadSamples.
func rawDecode[T any](r io.Reader, n, size int, grow bool, fill func(dst []T, src []byte)) ([]T, error) {
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
				return nil, fmt.Errorf("%w: %d of %d bytes", ErrShort, have, int64(n)*int64(size))
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

// rawFill8 converts bytes to 8-bit samples.
func rawFill8[T ~uint8 | ~int8](dst []T, src []byte) {
	for i := range dst {
		dst[i] = T(src[i])
	}
}

// rawFill16 returns a converter of 16-bit samples in the byte order.
func rawFill16[T ~uint16 | ~int16](little bool) func([]T, []byte) {
	if little {
		return fileio.DecodeLE16[T]
	}
	return func(dst []T, src []byte) {
		for i := range dst {
			dst[i] = T(binary.BigEndian.Uint16(src[2*i:]))
		}
	}
}

// rawFill32 returns a converter of 32-bit integer samples in the byte order.
func rawFill32[T ~uint32 | ~int32](little bool) func([]T, []byte) {
	if little {
		return fileio.DecodeLE32[T]
	}
	return func(dst []T, src []byte) {
		for i := range dst {
			dst[i] = T(binary.BigEndian.Uint32(src[4*i:]))
		}
	}
}

// rawFill64 returns a converter of 64-bit integer samples in the byte order.
func rawFill64[T ~uint64 | ~int64](little bool) func([]T, []byte) {
	if little {
		return fileio.DecodeLE64[T]
	}
	return func(dst []T, src []byte) {
		for i := range dst {
			dst[i] = T(binary.BigEndian.Uint64(src[8*i:]))
		}
	}
}

// rawFillFloat32 returns a converter of float32 samples in the byte order.
func rawFillFloat32(little bool) func([]float32, []byte) {
	if little {
		return fileio.DecodeLEFloat32
	}
	return func(dst []float32, src []byte) {
		for i := range dst {
			dst[i] = math.Float32frombits(binary.BigEndian.Uint32(src[4*i:]))
		}
	}
}

// rawFillFloat64 returns a converter of float64 samples in the byte order.
func rawFillFloat64(little bool) func([]float64, []byte) {
	if little {
		return fileio.DecodeLEFloat64
	}
	return func(dst []float64, src []byte) {
		for i := range dst {
			dst[i] = math.Float64frombits(binary.BigEndian.Uint64(src[8*i:]))
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

// rawDtypeNames lists the dtypes ReadFile accepts, for messages.
const rawDtypeNames = "uint8, int8, uint16, int16, uint32, int32, uint64, int64, float32, float64"
