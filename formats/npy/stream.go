package npy

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"os"

	"github.com/cclabel/cclabel/formats/raw"
)

// OpenStream opens a 3D C-order .npy array as a stream of planes. The array
// has shape (Z, Y, X) and is read for labeling out of core; the file must
// hold exactly its samples. Fortran-order arrays are refused (their planes
// are not contiguous).
func OpenStream(path string) (*raw.Stream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	s, err := openStream(f)
	if err != nil {
		f.Close()
		return nil, fileio.Wrap(path, "npy", err)
	}
	return s, nil
}

// openStream reads f's header and returns the stream of its samples.
func openStream(f *os.File) (*raw.Stream, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	h, err := readNPYHeader(br)
	if err != nil {
		return nil, err
	}
	if len(h.dims) != 3 {
		return nil, fileio.Unsupportedf("array of %d dimensions: a volume has 3", len(h.dims))
	}
	if h.fortran {
		return nil, fileio.Unsupportedf("a Fortran-order array cannot be read plane by plane: save it in C order")
	}
	var order binary.ByteOrder = binary.LittleEndian
	if h.bigEndian {
		order = binary.BigEndian
	}
	s, err := raw.NewStream(br, h.dims[2], h.dims[1], h.dims[0], h.kind, order, nil, f)
	if err != nil {
		return nil, err
	}
	if need := s.Bytes(); st.Size()-h.dataOffset != need {
		return nil, fmt.Errorf("shape %v of %s needs %d data bytes, file has %d", h.dims, h.kind, need, st.Size()-h.dataOffset)
	}
	return s, nil
}
