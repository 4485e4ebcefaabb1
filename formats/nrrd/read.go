package nrrd

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// ReadFile reads a NRRD volume from the .nrrd or .nhdr file at path. The file
// is an attached-header .nrrd file or a detached .nhdr header whose "data
// file" field names the data, relative to the header's folder ("data file:
// LIST" and format-string lists of files are read too). All scalar types;
// raw, gzip, bzip2, ascii and hex encodings; line and byte skips. Dimension 2
// or 3 gives one frame (Depth 1 for 2-D), dimension 4 one frame per index of
// the last axis; a first axis of a non-spatial kind (vectors, colour) is
// refused.
//
// Spacing is the lengths of the "space directions" vectors, else the
// "spacings", else 1. Affine has the space directions as columns and the
// space origin as translation, in the file's own space (see [Header.Space]);
// without space directions it is the identity scaled by Spacing. Space is the
// header's space, Units "mm" (space units are not read). Slope is 1, Inter 0,
// Format "nrrd" and Header the parsed [*Header]. Sizes are checked against
// the file before samples are allocated. Errors read "formats: PATH: nrrd:
// ...". The bytes read (of the header and data files) are counted on the
// meter watching path ([fileprogress.ForFile]), if any.
func ReadFile(path string) (*imagegraph.Volume, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	m := fileprogress.ForFile(path)
	m.Expect(st.Size(), fileprogress.Bytes)
	v, err := readNRRD(fileprogress.ReaderAt(f, m), st.Size(), nrrdFileOpener(filepath.Dir(path), m), imagegraph.MaxVoxels)
	if err != nil {
		return nil, fileio.Wrap(path, "nrrd", err)
	}
	return v, nil
}

// nrrdFileOpener opens detached data files named relative to dir,
// counting their bytes read on m (which may be nil).
func nrrdFileOpener(dir string, m *fileprogress.Meter) nrrdOpener {
	return func(name string) (io.ReaderAt, int64, func() error, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		df, err := os.Open(name)
		if err != nil {
			return nil, 0, nil, fmt.Errorf("nrrd: data file: %w", err)
		}
		st, err := df.Stat()
		if err != nil {
			df.Close()
			return nil, 0, nil, fmt.Errorf("nrrd: data file: %w", err)
		}
		m.Expect(st.Size(), fileprogress.Bytes)
		return fileprogress.ReaderAt(df, m), st.Size(), df.Close, nil
	}
}

// nrrdOpener opens a detached data file by the name the header gives.
type nrrdOpener func(name string) (r io.ReaderAt, size int64, close func() error, err error)

// readNRRD reads a NRRD file of size bytes from r; open opens detached
// data files (nil: only attached data is accepted). At most maxSamples
// samples are admitted. Errors start with "nrrd: ".
func readNRRD(r io.ReaderAt, size int64, open nrrdOpener, maxSamples int) (*imagegraph.Volume, error) {
	h, headerBytes, blank, err := parseNRRDHeader(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 64<<10))
	if err != nil {
		return nil, err
	}
	w, ht, d, frames, err := h.volumeShape(maxSamples)
	if err != nil {
		return nil, err
	}
	n := w * ht * d * frames
	var parts []nrrdPart
	switch {
	case h.DataFiles == nil && !blank:
		return nil, errors.New("nrrd: no data: the header names no \"data file\" and no blank line ends it")
	case h.DataFiles == nil:
		attached := func() (io.ReaderAt, int64, func() error, error) { return r, size, nil, nil }
		parts = []nrrdPart{{open: attached, start: headerBytes}}
	case open == nil:
		return nil, fileio.Unsupportedf("nrrd: detached data files are not supported here (read the header from its file)")
	default:
		for _, name := range h.DataFiles {
			parts = append(parts, nrrdPart{name: name, open: func() (io.ReaderAt, int64, func() error, error) { return open(name) }})
		}
	}
	s := &nrrdStream{h: h, parts: parts, partBytes: -1}
	defer s.close()
	if h.Encoding != "ascii" {
		s.partBytes = int64(n) * int64(h.Kind.Size()) / int64(len(parts))
	}
	// Open the first part now, so that a raw file too short for the sizes
	// is refused before the samples are allocated.
	if err := s.openPart(); err != nil {
		return nil, err
	}
	var data imagegraph.Data
	if h.Encoding == "ascii" {
		data, err = nrrdASCII(s, h.Kind, n)
	} else {
		var order binary.ByteOrder = binary.LittleEndian
		if h.Endian == "big" {
			order = binary.BigEndian
		}
		data, err = raw.ReadSamples(s, h.Kind, n, order, h.Encoding != "raw" || len(parts) > 1)
	}
	if err != nil {
		if errors.Is(err, raw.ErrShort) {
			return nil, fmt.Errorf("nrrd: data ends early (%w)", err)
		}
		return nil, err
	}
	if err := s.finish(); err != nil {
		return nil, err
	}
	return h.volume(data, w, ht, d, frames)
}

// volumeShape returns the width, height, depth and number of frames of
// the volume the header describes, checking the dimension, the first
// axis's kind and the number of samples (at most maxSamples).
func (h *Header) volumeShape(maxSamples int) (w, ht, d, frames int, err error) {
	s := h.Sizes
	switch h.Dimension {
	case 2:
		w, ht, d, frames = s[0], s[1], 1, 1
	case 3:
		w, ht, d, frames = s[0], s[1], s[2], 1
	case 4:
		w, ht, d, frames = s[0], s[1], s[2], s[3]
	default:
		return 0, 0, 0, 0, fmt.Errorf("nrrd: dimension %d: want 2, 3 or 4 (a 3-D volume over time)", h.Dimension)
	}
	if h.Kinds != nil && !nrrdSpatialKind(h.Kinds[0]) && s[0] > 1 {
		return 0, 0, 0, 0, fileio.Unsupportedf("nrrd: the first axis has kind %q, not a spatial axis (vector or colour samples are not supported)", h.Kinds[0])
	}
	plane, err := imagegraph.PixelCount(w, ht, 1)
	if err != nil {
		return 0, 0, 0, 0, fmt.Errorf("nrrd: sizes %v hold more than %d samples in a plane", s, imagegraph.MaxPixels)
	}
	if int64(d) > int64(maxSamples)/int64(plane) || int64(frames) > int64(maxSamples)/(int64(plane)*int64(d)) {
		return 0, 0, 0, 0, fmt.Errorf("nrrd: sizes %v hold more than %d samples", s, maxSamples)
	}
	return w, ht, d, frames, nil
}

// nrrdSpatialKind reports whether an axis kind may be a spatial axis.
func nrrdSpatialKind(kind string) bool {
	switch strings.ToLower(kind) {
	case "domain", "space", "time", "???", "none":
		return true
	}
	return false
}

// volume wraps the samples as a volume of frames frames of w x ht x d,
// with the header's geometry.
func (h *Header) volume(data imagegraph.Data, w, ht, d, frames int) (*imagegraph.Volume, error) {
	v := h.emptyVolume()
	frame := w * ht * d
	for k := range frames {
		r := &imagegraph.Raster{Width: w, Height: ht, Depth: d, Kind: h.Kind, Data: data.Slice(k*frame, (k+1)*frame)}
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("nrrd: %w", err)
		}
		v.Frames = append(v.Frames, r)
	}
	return v, nil
}

// emptyVolume returns the volume of the header's geometry, without
// frames. Its world is the header's space, in millimetres (space units
// are not read).
func (h *Header) emptyVolume() *imagegraph.Volume {
	spacing, affine := h.geometry()
	geo := imagegraph.Geometry{Spacing: spacing, Affine: affine, Space: h.Space, Units: "mm"}
	return &imagegraph.Volume{Slope: 1, Geometry: geo, Format: "nrrd", Header: h}
}
