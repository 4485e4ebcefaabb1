package raw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
)

// rawChunkBytes is how much encoded data the sample decoders convert at a
// time.
const rawChunkBytes = 1 << 20

// ErrShort reports that the input ended before all samples were read.
// [ReadSamples] wraps it with the counts.
var ErrShort = errors.New("short input")

// ReadSamples reads n binary samples of kind from r in the given order. When
// grow is false the samples are allocated at once (the caller has checked
// that the input holds enough bytes); when it is set they grow as data
// arrives, so that a header promising more data than a compressed stream
// holds costs no more memory than the data itself. An input that ends early
// gives an error wrapping [ErrShort] that says how many bytes arrived.
func ReadSamples(r io.Reader, kind imagegraph.SampleKind, n int, order binary.ByteOrder, grow bool) (imagegraph.Data, error) {
	first := n
	if grow {
		first = min(n, rawChunkBytes)
	}
	out, err := imagegraph.NewSamples(kind, first)
	if err != nil || kind == imagegraph.RGB {
		return nil, fileio.Unsupportedf("unsupported sample kind %v", kind)
	}
	size := kind.Size()
	big := order != binary.ByteOrder(binary.LittleEndian)
	per := max(1, min(rawChunkBytes/size, n))
	for done := 0; done < n; {
		k := min(per, n-done)
		if need := done + k; need > out.Len() {
			grown, _ := imagegraph.NewSamples(kind, min(n, max(need, 2*out.Len())))
			copy(grown.Bytes(), out.Bytes()[:done*size])
			out = grown
		}
		b := out.Slice(done, done+k).Bytes()
		if got, err := io.ReadFull(r, b); err != nil {
			return nil, shortError(err, int64(done)*int64(size)+int64(got), int64(n)*int64(size))
		}
		fileio.ToHost(b, size, big)
		done += k
	}
	return out, nil
}

// shortError returns ErrShort, with have of want bytes, for an input that
// ended early, or else err.
func shortError(err error, have, want int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: %d of %d bytes", ErrShort, have, want)
	}
	return err
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
