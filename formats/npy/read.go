package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// npyKinds maps NumPy type codes (without byte order) to sample kinds.
var npyKinds = map[string]imagegraph.SampleKind{
	"u1": imagegraph.Uint8, "b1": imagegraph.Uint8, "i1": imagegraph.Int8,
	"u2": imagegraph.Uint16, "i2": imagegraph.Int16,
	"u4": imagegraph.Uint32, "i4": imagegraph.Int32,
	"u8": imagegraph.Uint64, "i8": imagegraph.Int64,
	"f4": imagegraph.Float32, "f8": imagegraph.Float64,
}

var (
	npyDescr   = regexp.MustCompile(`'descr':\s*'([<>|=])([a-z]\d)'`)
	npyFortran = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
)

// ReadFile reads a 2D or 3D NumPy array file as a raster.
func ReadFile(path string) (*imagegraph.Raster, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	r, err := read(bufio.NewReaderSize(f, 1<<20), st.Size())
	if err != nil {
		return nil, fileio.Wrap(path, "npy", err)
	}
	return r, nil
}

// Read reads a 2D or 3D NumPy .npy array from r as a raster. It reads format
// 1.0 to 3.0; size is the input's length, or -1. A C-order array's last axis
// is x: (H, W) or (Z, Y, X). A Fortran-order array's first axis is x: (X, Y)
// or (X, Y, Z). Either way the samples keep their memory order. The header is
// checked against the size before anything large is allocated.
func Read(r io.Reader, size int64) (*imagegraph.Raster, error) {
	raster, err := read(r, size)
	if err != nil {
		return nil, fmt.Errorf("npy: %w", err)
	}
	return raster, nil
}

// read is Read with errors that do not name the format.
func read(r io.Reader, size int64) (*imagegraph.Raster, error) {
	hdr, err := readNPYHeader(r)
	if err != nil {
		return nil, err
	}
	w, h, d, n, err := hdr.geometry(size)
	if err != nil {
		return nil, err
	}
	samples, err := readSamples(r, hdr.kind, n, hdr.bigEndian)
	if err != nil {
		return nil, err
	}
	raster := &imagegraph.Raster{Width: w, Height: h, Depth: d, Kind: hdr.kind, Data: samples}
	return raster, raster.Validate()
}

// npyArrayHeader is what a .npy header says about its array.
type npyArrayHeader struct {
	dims               []int
	kind               imagegraph.SampleKind
	bigEndian, fortran bool
	dataOffset         int64 // where the samples start
}

// geometry returns the raster's sides and voxel count for the array the
// header describes, checking them against the input's size (-1 when
// unknown): with the size known arrays up to imagegraph.MaxVoxels are
// taken; from a stream of unknown length (stdin) the samples are
// allocated on the header's word, so at most imagegraph.MaxPixels.
func (hdr npyArrayHeader) geometry(size int64) (w, h, d, n int, err error) {
	dims, fortran := hdr.dims, hdr.fortran
	switch {
	case len(dims) == 2 && !fortran:
		w, h, d = dims[1], dims[0], 1
	case len(dims) == 2:
		w, h, d = dims[0], dims[1], 1
	case len(dims) == 3 && !fortran:
		w, h, d = dims[2], dims[1], dims[0]
	case len(dims) == 3:
		w, h, d = dims[0], dims[1], dims[2]
	default:
		return 0, 0, 0, 0, fileio.Unsupportedf("array of %d dimensions: want 2 (an image) or 3 (a volume)", len(dims))
	}
	count := imagegraph.VoxelCount
	if size < 0 {
		count = imagegraph.PixelCount
	}
	if n, err = count(w, h, d); err != nil {
		return 0, 0, 0, 0, err
	}
	need := int64(n) * int64(hdr.kind.Size())
	if size >= 0 && size-hdr.dataOffset != need {
		return 0, 0, 0, 0, fmt.Errorf("shape %v of %s needs %d data bytes, file has %d", dims, hdr.kind, need, size-hdr.dataOffset)
	}
	return w, h, d, n, nil
}

// readNPYHeader reads the magic, version and header dictionary.
func readNPYHeader(r io.Reader) (npyArrayHeader, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return npyArrayHeader{}, noEOF(err, "file too short for the .npy magic")
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return npyArrayHeader{}, errors.New("not a .npy file (bad magic)")
	}
	var hlen int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return npyArrayHeader{}, noEOF(err, "truncated header")
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return npyArrayHeader{}, noEOF(err, "truncated header")
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return npyArrayHeader{}, fileio.Unsupportedf("unsupported format version %d.%d", pre[6], pre[7])
	}
	if hlen > 1<<16 {
		return npyArrayHeader{}, fmt.Errorf("header of %d bytes is too long", hlen)
	}
	head := make([]byte, hlen)
	if _, err := io.ReadFull(r, head); err != nil {
		return npyArrayHeader{}, noEOF(err, "truncated header")
	}
	var h npyArrayHeader
	var err error
	h.dims, h.kind, h.bigEndian, h.fortran, err = parseNPYHeader(string(head))
	if err != nil {
		return npyArrayHeader{}, err
	}
	h.dataOffset = int64(hlen) + 8 + 2
	if pre[6] > 1 {
		h.dataOffset += 2
	}
	return h, nil
}

// parseNPYHeader reads the header dictionary.
func parseNPYHeader(head string) (dims []int, kind imagegraph.SampleKind, bigEndian, fortran bool, err error) {
	m := npyDescr.FindStringSubmatch(head)
	if m == nil {
		return nil, 0, false, false, fileio.Unsupportedf("header has no supported 'descr' (want integer or float samples): %q", strings.TrimSpace(head))
	}
	kind, ok := npyKinds[m[2]]
	if !ok {
		return nil, 0, false, false, fileio.Unsupportedf("unsupported dtype %q", m[1]+m[2])
	}
	bigEndian = m[1] == ">" && kind.Size() > 1
	f := npyFortran.FindStringSubmatch(head)
	if f == nil {
		return nil, 0, false, false, errors.New("header has no 'fortran_order'")
	}
	fortran = f[1] == "True"
	if dims, err = parseShape(head); err != nil {
		return nil, 0, false, false, err
	}
	return dims, kind, bigEndian, fortran, nil
}

// readSamples reads n samples of the kind, little- or big-endian.
func readSamples(r io.Reader, kind imagegraph.SampleKind, n int, bigEndian bool) (imagegraph.Data, error) {
	out, err := imagegraph.NewSamples(kind, n)
	if err != nil || kind == imagegraph.RGB {
		return nil, fileio.Unsupportedf("unsupported kind %v", kind)
	}
	// The pages fault in on a background goroutine while they are filled.
	defer parallel.Populate(out.Bytes())()
	size := kind.Size()
	b := out.Bytes()
	for lo := 0; lo < len(b); lo += 1 << 20 {
		chunk := b[lo:min(lo+1<<20, len(b))]
		if _, err := io.ReadFull(r, chunk); err != nil {
			return nil, noEOF(err, "truncated data")
		}
		fileio.ToHost(chunk, size, bigEndian)
	}
	return out, nil
}

// noEOF turns end-of-file errors into a message.
func noEOF(err error, msg string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New(msg)
	}
	return err
}

// ProbeFile reads the shape, sample kind and order of a .npy file's array. It
// reads the header alone; the shape is as NumPy gives it, and fortran tells
// whether the array is in Fortran order. Errors are [ReadFile]'s.
func ProbeFile(path string) (dims []int, kind imagegraph.SampleKind, fortran bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	h, err := readNPYHeader(bufio.NewReader(f))
	if err != nil {
		return nil, 0, false, fileio.Wrap(path, "npy", err)
	}
	return h.dims, h.kind, h.fortran, nil
}
