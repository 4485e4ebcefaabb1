package nifti

import (
	"bufio"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"os"
	"strings"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// ReadFile reads a NIfTI-1 or NIfTI-2 volume from the file at path. The file
// is a .nii or .nii.gz, or a .hdr/.img pair given by either name (each part
// may be gzipped: .hdr.gz, .img.gz). Extensions of a pair are the bytes after
// the header in the .hdr file; the samples start at vox_offset in the .img
// file. See [Read] for what is read and checked. Errors are one line:
// "formats: PATH: nifti: ...". The bytes read from the file (both files of a
// pair; compressed bytes of a gzipped one) are counted on the meter watching
// path ([fileprogress.ForFile]), if any.
func ReadFile(path string) (*imagegraph.Volume, error) {
	return readFile(path, nil)
}

// SamplesFunc is told how many samples of a volume being read are in place.
// It is called on the reading goroutine: v is the volume with its sample
// slices allocated at their full length (header fields set), done counts
// samples over all frames in file order. Samples at and after done must not
// be read until a later call covers them.
type SamplesFunc func(v *imagegraph.Volume, done int)

// ReadFileStreaming is [ReadFile] calling onSamples as the samples arrive. It
// calls it first with done 0 once they are allocated, then after each chunk,
// so that work on the first planes can start while the rest is decompressed.
// It is not called when the samples cannot be allocated at once (a gzipped
// stream whose size is unknown) or for a .hdr/.img pair. An error returned
// after calls to onSamples means the samples must be dropped (a truncated
// file, a bad gzip checksum at its end).
func ReadFileStreaming(path string, onSamples SamplesFunc) (*imagegraph.Volume, error) {
	return readFile(path, onSamples)
}

// readFile is ReadFile and ReadFileStreaming.
func readFile(path string, onSamples SamplesFunc) (*imagegraph.Volume, error) {
	hdr, img, pair, err := niftiPairPaths(path)
	if err != nil {
		return nil, &fileio.FileError{Path: path, Err: fmt.Errorf("nifti: %w", err)}
	}
	m := fileprogress.ForFile(path)
	if pair {
		v, err := niftiReadPair(hdr, img, m)
		if err != nil {
			return nil, fileio.Wrap(path, "nifti", err)
		}
		return v, nil
	}
	f, size, err := niftiOpenFile(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	m.Expect(size, fileprogress.Bytes)
	v, err := niftiReadSingle(bufio.NewReaderSize(fileprogress.Reader(f, m), 1<<20), size, onSamples)
	if err != nil {
		return nil, fileio.Wrap(path, "nifti", err)
	}
	return v, nil
}

// niftiOpenFile opens a file and returns its size.
func niftiOpenFile(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// niftiPairPaths recognises the two halves of a .hdr/.img pair (either
// may end in .gz) and finds the other half next to the given one.
func niftiPairPaths(path string) (hdr, img string, pair bool, err error) {
	base, gz := path, ""
	if strings.HasSuffix(strings.ToLower(base), ".gz") {
		base, gz = base[:len(base)-3], base[len(base)-3:]
	}
	if len(base) < 4 {
		return "", "", false, nil
	}
	stem, ext := base[:len(base)-4], base[len(base)-4:]
	var other string
	switch strings.ToLower(ext) {
	case ".hdr":
		other = ".img"
	case ".img":
		other = ".hdr"
	default:
		return "", "", false, nil
	}
	if ext == strings.ToUpper(ext) {
		other = strings.ToUpper(other)
	}
	candidates := []string{stem + other + gz, stem + other, stem + other + ".gz"}
	found := ""
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			found = c
			break
		}
	}
	if found == "" {
		return "", "", false, fmt.Errorf("no %s file next to it for the .hdr/.img pair (looked for %s)", other, candidates[1])
	}
	if strings.EqualFold(ext, ".hdr") {
		return path, found, true, nil
	}
	return found, path, true, nil
}

// niftiReadPair reads a .hdr/.img pair, counting the bytes of both files
// read on m (which may be nil).
func niftiReadPair(hdrPath, imgPath string, m *fileprogress.Meter) (*imagegraph.Volume, error) {
	hf, hsize, err := niftiOpenFile(hdrPath)
	if err != nil {
		return nil, err
	}
	defer hf.Close()
	m.Expect(hsize, fileprogress.Bytes)
	hin, err := niftiOpen(bufio.NewReader(fileprogress.Reader(hf, m)), hsize)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hdrPath, err)
	}
	h, err := niftiReadHeader(hin.r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hdrPath, err)
	}
	l, err := h.layout()
	if err != nil {
		return nil, err
	}
	rest, err := io.ReadAll(io.LimitReader(hin.r, niftiMaxExtension+5))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hdrPath, niftiStreamError(err))
	}
	if len(rest) >= 4 {
		copy(h.Extender[:], rest)
		if len(rest) <= niftiMaxExtension+4 {
			h.Extensions = rest[4:]
		}
	}
	if len(h.Extensions) == 0 {
		h.Extensions = nil
	}
	if err := hin.finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", hdrPath, err)
	}
	data, err := niftiReadImg(imgPath, h, l, m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", imgPath, err)
	}
	return niftiVolume(h, l, data), nil
}

// niftiReadImg reads the samples of a pair from its .img file, counting
// its bytes read on m.
func niftiReadImg(path string, h *Header, l niftiLayout, m *fileprogress.Meter) (imagegraph.Data, error) {
	f, size, err := niftiOpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m.Expect(size, fileprogress.Bytes)
	in, err := niftiOpen(bufio.NewReaderSize(fileprogress.Reader(f, m), 1<<20), size)
	if err != nil {
		return nil, err
	}
	sized, err := in.fits(h.VoxOffset, l)
	if err != nil {
		return nil, err
	}
	if _, err := io.CopyN(io.Discard, in.r, h.VoxOffset); err != nil {
		return nil, niftiShortError(err, fmt.Sprintf("vox_offset %d is past the end of the data", h.VoxOffset))
	}
	data, err := niftiReadSamples(in.r, l, h.BigEndian, sized, nil)
	if err != nil {
		return nil, err
	}
	return data, in.finish()
}
