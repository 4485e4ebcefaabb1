package nrrd

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
)

// OpenStream opens a NRRD volume as a stream of planes for out-of-core
// labeling. The volume has one frame, raw, gzip or bzip2 encoding, and
// attached or detached data. With the stream it returns the header and
// geometry as a Volume whose one frame has no samples. The header is checked
// as [ReadFile] checks it.
func OpenStream(path string) (*raw.Stream, *imagegraph.Volume, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fileio.Wrap(path, "", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fileio.Wrap(path, "", err)
	}
	s, ref, err := openStream(f, st.Size(), nrrdFileOpener(filepath.Dir(path), nil))
	if err != nil {
		f.Close()
		return nil, nil, fileio.Wrap(path, "nrrd", err)
	}
	return s, ref, nil
}

// openStream is OpenStream on the header file r of size bytes; closing
// the stream closes r.
func openStream(r *os.File, size int64, open nrrdOpener) (*raw.Stream, *imagegraph.Volume, error) {
	h, headerBytes, blank, err := parseNRRDHeader(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 64<<10))
	if err != nil {
		return nil, nil, err
	}
	w, ht, d, frames, err := h.volumeShape(math.MaxInt)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case frames != 1:
		return nil, nil, fmt.Errorf("nrrd: %d frames: a 4D volume is not labeled out of core", frames)
	case h.Encoding == "ascii":
		return nil, nil, errors.New("nrrd: ascii data is not read plane by plane")
	case h.DataFiles == nil && !blank:
		return nil, nil, errors.New("nrrd: no data: the header names no \"data file\" and no blank line ends it")
	}
	var parts []nrrdPart
	if h.DataFiles == nil {
		attached := func() (io.ReaderAt, int64, func() error, error) { return r, size, nil, nil }
		parts = []nrrdPart{{open: attached, start: headerBytes}}
	} else {
		for _, name := range h.DataFiles {
			parts = append(parts, nrrdPart{name: name, open: func() (io.ReaderAt, int64, func() error, error) { return open(name) }})
		}
	}
	ns := &nrrdStream{h: h, parts: parts}
	ns.partBytes = int64(w) * int64(ht) * int64(d) * int64(h.Kind.Size()) / int64(len(parts))
	if err := ns.openPart(); err != nil {
		ns.close()
		return nil, nil, err
	}
	var order binary.ByteOrder = binary.LittleEndian
	if h.Endian == "big" {
		order = binary.BigEndian
	}
	closer := closerFunc(func() error {
		err := ns.close()
		if cerr := r.Close(); err == nil {
			err = cerr
		}
		return err
	})
	s, err := raw.NewStream(ns, w, ht, d, h.Kind, order, ns.finish, closer)
	if err != nil {
		ns.close()
		return nil, nil, fmt.Errorf("nrrd: %w", err)
	}
	s.Compressed = h.Encoding != "raw"
	ref := h.emptyVolume()
	ref.Frames = []*imagegraph.Raster{{Width: w, Height: ht, Depth: d, Kind: h.Kind}}
	return s, ref, nil
}

// closerFunc is a function as an io.Closer.
type closerFunc func() error

// Close calls the function.
func (f closerFunc) Close() error { return f() }
