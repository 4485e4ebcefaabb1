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
	"time"

	"github.com/cclabel/cclabel/imagegraph"
)

// Stream reads a volume's samples a few whole planes at a time. It reads in z
// order, for labeling volumes larger than memory: the readers of formats that
// store samples as one run of binary values (raw, .npy, NIfTI, NRRD) open one
// positioned at the first sample.
type Stream struct {
	// Width, Height and Depth are the volume's sides; Depth may make more
	// than [imagegraph.MaxPixels] voxels (each plane may not).
	Width, Height, Depth int
	// Kind is the samples' type.
	Kind imagegraph.SampleKind
	// Order is the samples' byte order.
	Order binary.ByteOrder
	// Compressed reports that the samples are decompressed as they are
	// read (gzip, bzip2, text), which then sets the pace of the read.
	Compressed bool

	r      io.Reader
	planes int  // planes read so far
	ended  bool // finish ran
	// finish runs when every plane was read (a gzip checksum, say);
	// closer releases the input.
	finish func() error
	closer io.Closer
}

// DecompressRate is the bytes of samples per second a compressed stream is
// taken to yield: gzip inflating on one core of the reference host.
const DecompressRate = 300e6

// ReadTime is how long reading the stream's samples is expected to take:
// their bytes at DecompressRate when Compressed, none otherwise.
func (s *Stream) ReadTime() time.Duration {
	if !s.Compressed {
		return 0
	}
	bytes := float64(s.Width) * float64(s.Height) * float64(s.Depth) * float64(s.Kind.Size())
	return time.Duration(bytes / DecompressRate * float64(time.Second))
}

// NewStream returns a stream of the samples in r, checking the sides. r is
// positioned at the first sample; finish (may be nil) runs once the last
// plane was read, closer (may be nil) at [Stream.Close].
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

// ReadPlanes reads the next dst.Depth planes into dst. dst is a raster of the
// stream's width, height and kind (its samples are overwritten). After the
// last plane it runs the stream's final check.
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

// Skip reads past the next planes planes without keeping them. A gzipped
// input is still decompressed.
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

// OpenStream opens a raw file as a [Stream]. See [ReadFile] for shape, dtype
// and bigEndian; the file must hold exactly the volume's samples.
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

// ReadSamplesInto fills dst with binary samples from r in the given order. An
// input that ends early gives an error wrapping [ErrShort].
func ReadSamplesInto(r io.Reader, dst imagegraph.Data, order binary.ByteOrder) error {
	size := dst.Kind().Size()
	per := max(1, min(rawChunkBytes/size, dst.Len()))
	for done := 0; done < dst.Len(); {
		k := min(per, dst.Len()-done)
		b := dst.Slice(done, done+k).Bytes()
		if got, err := io.ReadFull(r, b); err != nil {
			return shortError(err, int64(done)*int64(size)+int64(got), int64(dst.Len())*int64(size))
		}
		fileio.ToHost(b, size, order != binary.ByteOrder(binary.LittleEndian))
		done += k
	}
	return nil
}
