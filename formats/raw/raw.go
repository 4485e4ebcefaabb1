package raw

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
)

// ReadFile reads a headerless file of raw samples as a volume. The volume has
// shape [X, Y, Z], x fastest. dtype is a NumPy type name: "uint8", "int8",
// "uint16", "int16", "uint32", "int32", "uint64", "int64", "float32" or
// "float64". Samples are little-endian unless bigEndian. The file must hold
// exactly X*Y*Z samples. The volume has one frame, spacing 1, an identity
// affine and Format "raw". Errors read "formats: PATH: raw: ...".
func ReadFile(path string, shape [3]int, dtype string, bigEndian bool) (*imagegraph.Volume, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	v, err := readRaw(bufio.NewReaderSize(f, rawChunkBytes), st.Size(), shape, dtype, bigEndian)
	if err != nil {
		return nil, fileio.Wrap(path, "raw", err)
	}
	return v, nil
}

// MapFile is [ReadFile] with the samples mapped from the file where it can.
// It maps them instead of copying them into fresh memory where they can be
// used as stored (one-byte samples, or the machine's byte order; on Linux),
// read-only and valid until release is called (package npy's MapFile says
// more). Other files are read by [ReadFile] and release does nothing. Errors
// are [ReadFile]'s.
func MapFile(path string, shape [3]int, dtype string, bigEndian bool) (v *imagegraph.Volume, release func(), err error) {
	if v, release = mapRaw(path, shape, dtype, bigEndian); v != nil {
		return v, release, nil
	}
	v, err = ReadFile(path, shape, dtype, bigEndian)
	if err != nil {
		return nil, nil, err
	}
	return v, func() {}, nil
}

// mapRaw maps path's samples, or returns nil when they are to be read
// (ReadFile then reports any error).
func mapRaw(path string, shape [3]int, dtype string, bigEndian bool) (*imagegraph.Volume, func()) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil
	}
	kind, n, err := checkRaw(st.Size(), shape, dtype)
	if err != nil {
		return nil, nil
	}
	data, unmap, err := fileio.MapSamples(f, kind, n, 0, bigEndian)
	if err != nil {
		return nil, nil
	}
	raster := &imagegraph.Raster{Width: shape[0], Height: shape[1], Depth: shape[2], Kind: kind, Data: data}
	if raster.Validate() != nil {
		unmap()
		return nil, nil
	}
	return imagegraph.NewVolume(raster, "raw"), unmap
}

// checkRaw checks a raw file of size bytes against the shape and dtype
// and returns the sample kind and count.
func checkRaw(size int64, shape [3]int, dtype string) (imagegraph.SampleKind, int, error) {
	kind, ok := rawDtypes[dtype]
	if !ok {
		return 0, 0, fileio.Unsupportedf("unknown dtype %q (want one of %s)", dtype, rawDtypeNames)
	}
	n, err := imagegraph.VoxelCount(shape[0], shape[1], shape[2])
	if err != nil {
		return 0, 0, fmt.Errorf("shape %v: every side must be at least 1, a plane at most %d voxels and the volume at most %d", shape, imagegraph.MaxPixels, int64(imagegraph.MaxVoxels))
	}
	need := int64(n) * int64(kind.Size())
	if size != need {
		return 0, 0, fmt.Errorf("shape %v of %s needs %d bytes, the file has %d", shape, dtype, need, size)
	}
	return kind, n, nil
}

// readRaw is ReadFile on a reader of size bytes.
func readRaw(r io.Reader, size int64, shape [3]int, dtype string, bigEndian bool) (*imagegraph.Volume, error) {
	kind, n, err := checkRaw(size, shape, dtype)
	if err != nil {
		return nil, err
	}
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	data, err := ReadSamples(r, kind, n, order, false)
	if err != nil {
		if errors.Is(err, ErrShort) {
			return nil, fmt.Errorf("file ended early (%w)", err)
		}
		return nil, err
	}
	raster := &imagegraph.Raster{Width: shape[0], Height: shape[1], Depth: shape[2], Kind: kind, Data: data}
	if err := raster.Validate(); err != nil {
		return nil, err
	}
	return imagegraph.NewVolume(raster, "raw"), nil
}
