package npy

import (
	"bufio"
	"os"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
)

// MapFile is [ReadFile] with the samples mapped from the file where it can.
// It maps them instead of copying them into fresh memory where they are
// stored as the raster keeps them: one-byte samples, or samples in the
// machine's byte order at an offset aligned to their size (NumPy pads headers
// to 64 bytes), on Linux. Other arrays, and files that cannot be mapped, are
// read by [ReadFile]. The raster is the same either way; mapped samples are
// read-only (see [fileio.MapSamples]) and valid until release is called,
// which the caller does once it is done with the raster (release does nothing
// for a raster that was read). Errors are [ReadFile]'s.
func MapFile(path string) (r *imagegraph.Raster, release func(), err error) {
	r, release, err = mapFile(path)
	if err != nil {
		return nil, nil, fileio.Wrap(path, "npy", err)
	}
	if r == nil { // not mappable: read it
		r, err = ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		release = func() {}
	}
	return r, release, nil
}

// mapFile maps path's samples; a nil raster and error mean that they
// cannot be mapped and are to be read (ReadFile then also reports a
// file that cannot be opened). Its errors lack the path.
func mapFile(path string) (*imagegraph.Raster, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, nil, nil
	}
	hdr, err := readNPYHeader(bufio.NewReader(f))
	if err != nil {
		return nil, nil, err
	}
	w, h, d, n, err := hdr.geometry(st.Size())
	if err != nil {
		return nil, nil, err
	}
	samples, unmap, err := fileio.MapSamples(f, hdr.kind, n, hdr.dataOffset, hdr.bigEndian)
	if err != nil {
		return nil, nil, nil // read instead
	}
	r := &imagegraph.Raster{Width: w, Height: h, Depth: d, Kind: hdr.kind, Data: samples}
	if err := r.Validate(); err != nil {
		unmap()
		return nil, nil, err
	}
	return r, unmap, nil
}
