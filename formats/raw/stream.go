package raw

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"math"
	"os"

	"github.com/cclabel/cclabel/imagegraph"
)

// Stream reads a volume's samples a few whole planes at a time, in z
// order, for labeling volumes larger than memory: the readers of formats
// that store samples as one run of binary values (raw, .npy, NIfTI, NRRD)
// open one positioned at the first sample.
type Stream struct {
	// Width, Height and Depth are the volume's sides; Depth may make
	// more than imagegraph.MaxPixels voxels (each plane may not).
	Width, Height, Depth int
	// Kind is the samples' type.
	Kind imagegraph.SampleKind
	// Order is the samples' byte order.
	Order binary.ByteOrder

	r      io.Reader
	planes int  // planes read so far
	ended  bool // finish ran
	// finish runs when every plane was read (a gzip checksum, say);
	// closer releases the input.
	finish func() error
	closer io.Closer
}

// NewStream returns a stream of the samples in r (positioned at the
// first one), checking the sides; finish (may be nil) runs once the last
// plane was read, closer (may be nil) at Close.
func NewStream(r io.Reader, width, height, depth int, kind imagegraph.SampleKind, order binary.ByteOrder, finish func() error, closer io.Closer) (*Stream, error) {
	if _, err := imagegraph.PixelCount(width, height, 1); err != nil || depth < 1 {
		return nil, fmt.Errorf("a %dx%dx%d volume: every side must be at least 1 and a plane at most %d voxels", width, height, depth, imagegraph.MaxPixels)
	}
	if kind.Size() == 0 {
		return nil, fileio.Unsupportedf("unsupported sample kind %v", kind)
	}
	if planeBytes := int64(width) * int64(height) * int64(kind.Size()); int64(depth) > math.MaxInt64/planeBytes {
		return nil, fmt.Errorf("a %dx%dx%d volume of %v is too large", width, height, depth, kind)
	}
	return &Stream{Width: width, Height: height, Depth: depth, Kind: kind, Order: order, r: r, finish: finish, closer: closer}, nil
}

// Bytes returns the size of the samples of the whole volume.
func (s *Stream) Bytes() int64 {
	return int64(s.Width) * int64(s.Height) * int64(s.Depth) * int64(s.Kind.Size())
}

// ReadPlanes reads the next dst.Depth planes into dst, a raster of the
// stream's width, height and kind (its samples are overwritten). After
// the last plane it runs the stream's final check.
func (s *Stream) ReadPlanes(dst *imagegraph.Raster) error {
	if dst.Width != s.Width || dst.Height != s.Height || dst.Kind != s.Kind {
		return fmt.Errorf("planes of %dx%d %v read into a %dx%d %v raster", s.Width, s.Height, s.Kind, dst.Width, dst.Height, dst.Kind)
	}
	if s.planes+dst.Depth > s.Depth {
		return fmt.Errorf("planes %d..%d of a volume of %d", s.planes, s.planes+dst.Depth-1, s.Depth)
	}
	if err := ReadSamplesInto(s.r, dst.Data, s.Order); err != nil {
		if errors.Is(err, ErrShort) {
			return fmt.Errorf("the samples end in plane %d or before (%w)", s.planes+dst.Depth-1, err)
		}
		return err
	}
	s.planes += dst.Depth
	return s.end()
}

// end runs the final check once the last plane was read.
func (s *Stream) end() error {
	if s.planes < s.Depth || s.ended || s.finish == nil {
		return nil
	}
	s.ended = true
	return s.finish()
}

// Skip reads past the next planes planes without keeping them (a
// gzipped input is still decompressed).
func (s *Stream) Skip(planes int) error {
	if planes < 0 || s.planes+planes > s.Depth {
		return fmt.Errorf("skipping planes %d..%d of a volume of %d", s.planes, s.planes+planes-1, s.Depth)
	}
	n := int64(planes) * int64(s.Width) * int64(s.Height) * int64(s.Kind.Size())
	if got, err := io.CopyN(io.Discard, s.r, n); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: the samples end %d bytes into plane %d", ErrShort, got, s.planes)
		}
		return err
	}
	s.planes += planes
	return s.end()
}

// Planes returns how many planes were read or skipped.
func (s *Stream) Planes() int { return s.planes }

// Close releases the input.
func (s *Stream) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer.Close()
}

// OpenStream opens a raw file as a Stream (see ReadFile for shape, dtype
// and bigEndian); the file must hold exactly the volume's samples.
func OpenStream(path string, shape [3]int, dtype string, bigEndian bool) (*Stream, error) {
	kind, ok := rawDtypes[dtype]
	if !ok {
		return nil, fileio.Wrap(path, "raw", fileio.Unsupportedf("unknown dtype %q (want one of %s)", dtype, rawDtypeNames))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fileio.Wrap(path, "", err)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	s, err := NewStream(bufio.NewReaderSize(f, rawChunkBytes), shape[0], shape[1], shape[2], kind, order, nil, f)
	if err == nil && s.Bytes() != st.Size() {
		err = fmt.Errorf("shape %v of %s needs %d bytes, the file has %d", shape, dtype, s.Bytes(), st.Size())
	}
	if err != nil {
		f.Close()
		return nil, fileio.Wrap(path, "raw", err)
	}
	return s, nil
}

// ReadSamplesInto fills dst, a raster sample slice ([]uint8, []int16,
// ...), with binary samples from r in the given byte order. An input that
// ends early gives an error wrapping ErrShort.
func ReadSamplesInto(r io.Reader, dst any, order binary.ByteOrder) error {
	little := order == binary.ByteOrder(binary.LittleEndian)
	switch d := dst.(type) {
	case []uint8:
		return rawDecodeInto(r, d, 1, rawFill8[uint8])
	case []int8:
		return rawDecodeInto(r, d, 1, rawFill8[int8])
	case []uint16:
		return rawDecodeInto(r, d, 2, rawFill16[uint16](little))
	case []int16:
		return rawDecodeInto(r, d, 2, rawFill16[int16](little))
	case []uint32:
		return rawDecodeInto(r, d, 4, rawFill32[uint32](little))
	case []int32:
		return rawDecodeInto(r, d, 4, rawFill32[int32](little))
	case []uint64:
		return rawDecodeInto(r, d, 8, rawFill64[uint64](little))
	case []int64:
		return rawDecodeInto(r, d, 8, rawFill64[int64](little))
	case []float32:
		return rawDecodeInto(r, d, 4, rawFillFloat32(little))
	case []float64:
		return rawDecodeInto(r, d, 8, rawFillFloat64(little))
	}
	return fmt.Errorf("unsupported sample slice %T", dst)
}

// rawDecodeInto fills out with samples of size bytes from r, converting
// each chunk with fill.
func rawDecodeInto[T any](r io.Reader, out []T, size int, fill func(dst []T, src []byte)) error {
	buf := make([]byte, max(size, min(rawChunkBytes/size, len(out))*size))
	for done := 0; done < len(out); {
		k := min(len(buf)/size, len(out)-done)
		got, err := io.ReadFull(r, buf[:k*size])
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				have := int64(done)*int64(size) + int64(got)
				return fmt.Errorf("%w: %d of %d bytes", ErrShort, have, int64(len(out))*int64(size))
			}
			return err
		}
		fill(out[done:done+k], buf[:k*size])
		done += k
	}
	return nil
}
