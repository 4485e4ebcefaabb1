package nifti

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/klauspost/compress/gzip"
)

// niftiGzipRatio is deflate's largest expansion (2 bits per 258-byte
// match): a gzip stream of n bytes holds at most about 1032n bytes.
const niftiGzipRatio = 1032

// Read reads a single-file NIfTI-1 or NIfTI-2 volume (.nii) from r. The file
// may be plain or gzipped (recognised by its magic, 1f 8b), little- or
// big-endian; size is the length of r (compressed, for gzip) or -1 when
// unknown. Samples of type uint8, int8, (u)int16, (u)int32, (u)int64, float32
// and float64 are kept as stored, with scl_slope/scl_inter in Slope/Inter; a
// 4D file gives one frame per time point, all slices of one buffer. The
// header is checked before the samples are allocated: against size for plain
// data, against what size bytes of gzip can expand to, and when size is
// unknown the buffer grows with the data actually read. Errors are one line
// starting with "nifti: ".
func Read(r io.Reader, size int64) (*imagegraph.Volume, error) {
	v, err := niftiReadSingle(r, size, nil)
	if err != nil {
		return nil, fmt.Errorf("nifti: %w", err)
	}
	return v, nil
}

// niftiInput is a NIfTI byte stream, decompressed when it was gzipped.
type niftiInput struct {
	r  io.Reader
	gz *gzip.Reader // nil for plain input
	// limit is the most bytes r can yield (-1 unknown): the exact size
	// for plain input, deflate's bound for gzip.
	limit int64
}

// niftiOpen sniffs gzip and sets up the stream; size is r's length or -1.
func niftiOpen(r io.Reader, size int64) (*niftiInput, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, niftiShortError(err, "gzip stream truncated in its header")
		}
		gz.Multistream(false)
		limit := int64(-1)
		if size >= 0 {
			limit = math.MaxInt64
			if size < (math.MaxInt64-1<<16)/niftiGzipRatio {
				limit = size*niftiGzipRatio + 1<<16
			}
		}
		return &niftiInput{r: &niftiMembers{gz: gz, src: br}, gz: gz, limit: limit}, nil
	}
	return &niftiInput{r: br, limit: size}, nil
}

// niftiMembers reads a gzip stream of one or more members, checking each
// member's checksum as it ends.
type niftiMembers struct {
	gz  *gzip.Reader
	src *bufio.Reader
}

// Read implements [io.Reader], going on to the next member when one ends.
func (m *niftiMembers) Read(p []byte) (int, error) {
	for {
		n, err := m.gz.Read(p)
		if err != io.EOF {
			return n, err
		}
		if n > 0 {
			return n, nil
		}
		if _, err := m.src.Peek(1); err != nil {
			return 0, io.EOF
		}
		if err := m.gz.Reset(m.src); err != nil {
			return 0, niftiStreamError(err)
		}
		m.gz.Multistream(false)
	}
}

// Gzipped samples of at least niftiReadAheadMin bytes are decompressed
// on a second goroutine, into a ring of niftiReadAheadBlocks buffers of
// niftiReadAheadBlock bytes, while the first converts and stores them.
const (
	niftiReadAheadMin    = 4 << 20
	niftiReadAheadBlock  = 256 << 10
	niftiReadAheadBlocks = 8
)

// samples returns the reader of the n bytes of samples that follow: for
// large gzipped input one that decompresses ahead on another goroutine.
// It yields the same bytes and errors as in.r, and reads no further than
// the n bytes, so in.finish sees the stream where the samples end once
// the returned reader is closed.
func (in *niftiInput) samples(n int64) io.ReadCloser {
	if in.gz == nil || n < niftiReadAheadMin {
		return io.NopCloser(in.r)
	}
	return fileio.NewReadahead(io.LimitReader(in.r, n), niftiReadAheadBlock, niftiReadAheadBlocks)
}

// fits checks that samples of the layout starting at offset can be in the
// input, and reports whether the input's size is known (so the samples
// may be allocated at once).
func (in *niftiInput) fits(offset int64, l niftiLayout) (bool, error) {
	if in.limit < 0 {
		return false, nil
	}
	if offset > in.limit || l.bytes > in.limit-offset {
		if in.gz != nil {
			return false, fmt.Errorf("%s %s samples need %d bytes at offset %d, more than the compressed input can hold", niftiShape(l), l.kind, l.bytes, offset)
		}
		if offset > in.limit {
			return false, fmt.Errorf("vox_offset %d is past the end of the %d-byte file", offset, in.limit)
		}
		return false, fmt.Errorf("%s %s samples need %d bytes at offset %d, the file has %d", niftiShape(l), l.kind, l.bytes, offset, in.limit)
	}
	return true, nil
}

// finish reads the rest of the current gzip member after the samples,
// which checks its checksum; up to 1 MiB is read, more is not checked.
// Whatever follows the member (more members, other bytes) is ignored.
func (in *niftiInput) finish() error {
	if in.gz == nil {
		return nil
	}
	_, err := io.CopyN(io.Discard, in.gz, 1<<20)
	switch {
	case err == nil || err == io.EOF:
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("gzip stream truncated after the samples")
	}
	return niftiStreamError(err)
}

// niftiShape formats a layout's size: XxYxZ, with xT for several frames.
func niftiShape(l niftiLayout) string {
	if l.frames > 1 {
		return fmt.Sprintf("%dx%dx%dx%d", l.width, l.height, l.depth, l.frames)
	}
	return fmt.Sprintf("%dx%dx%d", l.width, l.height, l.depth)
}

// niftiShortError turns end-of-file errors into msg.
func niftiShortError(err error, msg string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New(msg)
	}
	return niftiStreamError(err)
}

// niftiReadHeader reads and parses the header proper (348 or 540 bytes).
func niftiReadHeader(r io.Reader) (*Header, error) {
	var buf [niftiHeader2Size]byte
	if _, err := io.ReadFull(r, buf[:4]); err != nil {
		return nil, niftiShortError(err, "input too short for a NIfTI header")
	}
	version, bigEndian, err := niftiSniff(buf[:4])
	if err != nil {
		return nil, err
	}
	size := niftiHeader1Size
	if version == 2 {
		size = niftiHeader2Size
	}
	if _, err := io.ReadFull(r, buf[4:size]); err != nil {
		return nil, niftiShortError(err, fmt.Sprintf("truncated NIfTI-%d header", version))
	}
	return niftiDecodeHeader(buf[:size], version, bigEndian)
}

// niftiReadSingle reads a .nii stream, telling onSamples (if not nil) as
// the samples arrive (see ReadFileStreaming).
func niftiReadSingle(r io.Reader, size int64, onSamples SamplesFunc) (*imagegraph.Volume, error) {
	in, err := niftiOpen(r, size)
	if err != nil {
		return nil, err
	}
	h, err := niftiReadHeader(in.r)
	if err != nil {
		return nil, err
	}
	if h.Pair {
		return nil, fmt.Errorf("the header is of a .hdr/.img pair (magic \"ni%d\"): its samples are in the .img file", h.Version)
	}
	l, err := h.layout()
	if err != nil {
		return nil, err
	}
	start := h.headerSize() + 4
	if h.VoxOffset < start {
		return nil, fmt.Errorf("vox_offset %d is inside the %d-byte header and extender", h.VoxOffset, start)
	}
	sized, err := in.fits(h.VoxOffset, l)
	if err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(in.r, h.Extender[:]); err != nil {
		return nil, niftiShortError(err, "truncated after the header")
	}
	if h.Extensions, err = niftiReadRegion(in.r, h.VoxOffset-start, sized); err != nil {
		return nil, err
	}
	samples := in.samples(l.bytes)
	defer samples.Close()
	var v *imagegraph.Volume
	var filled func(data imagegraph.Data, done int)
	if onSamples != nil {
		filled = func(data imagegraph.Data, done int) {
			if v == nil {
				v = niftiVolume(h, l, data)
			}
			onSamples(v, done)
		}
	}
	data, err := niftiReadSamples(samples, l, h.BigEndian, sized, filled)
	if err != nil {
		return nil, err
	}
	samples.Close()
	if err := in.finish(); err != nil {
		return nil, err
	}
	if v == nil {
		v = niftiVolume(h, l, data)
	}
	return v, nil
}

// niftiReadRegion reads the n bytes between the extender and the samples,
// keeping them when they are at most niftiMaxExtension bytes. Unless
// sized, the buffer grows with the data actually read.
func niftiReadRegion(r io.Reader, n int64, sized bool) ([]byte, error) {
	var err error
	var kept []byte
	switch {
	case n == 0:
		return nil, nil
	case n > niftiMaxExtension:
		_, err = io.CopyN(io.Discard, r, n)
	case sized:
		kept = make([]byte, n)
		_, err = io.ReadFull(r, kept)
	default:
		var got []byte
		got, err = io.ReadAll(io.LimitReader(r, n))
		if err == nil && int64(len(got)) < n {
			err = io.ErrUnexpectedEOF
		}
		kept = got
	}
	if err != nil {
		return nil, niftiShortError(err, fmt.Sprintf("truncated in the %d bytes before the samples", n))
	}
	return kept, nil
}

// niftiVolume assembles the volume of a read file.
func niftiVolume(h *Header, l niftiLayout, data imagegraph.Data) *imagegraph.Volume {
	slope, inter := h.scaling()
	return &imagegraph.Volume{
		Frames: niftiFrames(data, l),
		Slope:  slope,
		Inter:  inter,
		Geometry: imagegraph.Geometry{Spacing: h.zooms(), Affine: h.Affine(),
			Space: "right-anterior-superior", Units: h.units()},
		Format: fmt.Sprintf("nifti%d", h.Version),
		Header: h,
	}
}
