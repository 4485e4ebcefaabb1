package nifti

import (
	"bufio"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"math"

	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
)

// OpenStream opens a single-file NIfTI volume as a stream of planes. The file
// is a .nii or .nii.gz of one frame, read for labeling out of core. With the
// stream it returns the volume's header and geometry as a Volume whose one
// frame has no samples (Data nil): the reference for [WriteLabelsFunc]. The
// header is checked as [Read] checks it, except that the volume may hold more
// than [imagegraph.MaxPixels] voxels (a plane may not); a gzipped file's
// checksum is checked after its last plane.
func OpenStream(path string) (*raw.Stream, *imagegraph.Volume, error) {
	f, size, err := niftiOpenFile(path)
	if err != nil {
		return nil, nil, fileio.Wrap(path, "", err)
	}
	s, ref, err := openStream(bufio.NewReaderSize(f, 1<<20), size, f)
	if err != nil {
		f.Close()
		return nil, nil, fileio.Wrap(path, "nifti", err)
	}
	return s, ref, nil
}

// openStream reads the header and what follows it up to the samples.
func openStream(r io.Reader, size int64, closer io.Closer) (*raw.Stream, *imagegraph.Volume, error) {
	in, err := niftiOpen(r, size)
	if err != nil {
		return nil, nil, err
	}
	h, err := niftiReadHeader(in.r)
	if err != nil {
		return nil, nil, err
	}
	if h.Pair {
		return nil, nil, fileio.Unsupportedf("the header is of a .hdr/.img pair: name the .nii file of a single-file volume")
	}
	l, err := h.layoutUpTo(math.MaxInt, math.MaxInt64)
	if err != nil {
		return nil, nil, err
	}
	if l.frames != 1 {
		return nil, nil, fileio.Unsupportedf("%d frames: a 4D volume is not labeled out of core", l.frames)
	}
	start := h.headerSize() + 4
	if h.VoxOffset < start {
		return nil, nil, fmt.Errorf("vox_offset %d is inside the %d-byte header and extender", h.VoxOffset, start)
	}
	sized, err := in.fits(h.VoxOffset, l)
	if err != nil {
		return nil, nil, err
	}
	if !sized {
		return nil, nil, fileio.Unsupportedf("the input's size is unknown")
	}
	if _, err := io.ReadFull(in.r, h.Extender[:]); err != nil {
		return nil, nil, niftiShortError(err, "truncated after the header")
	}
	if h.Extensions, err = niftiReadRegion(in.r, h.VoxOffset-start, sized); err != nil {
		return nil, nil, err
	}
	samples := in.samples(l.bytes)
	finish := func() error {
		if err := samples.Close(); err != nil {
			return niftiStreamError(err)
		}
		return in.finish()
	}
	// Closing stops the read-ahead goroutine (a stream left before its
	// last plane), then the file.
	both := niftiClosers{samples, closer}
	s, err := raw.NewStream(samples, l.width, l.height, l.depth, l.kind, h.byteOrder(), finish, both)
	if err != nil {
		samples.Close()
		return nil, nil, err
	}
	s.Compressed = in.gz != nil
	ref := niftiVolume(h, l, nil)
	ref.Frames = []*imagegraph.Raster{{Width: l.width, Height: l.height, Depth: l.depth, Kind: l.kind}}
	return s, ref, nil
}

// niftiClosers closes its closers in order and returns the first error.
type niftiClosers []io.Closer

// Close closes each closer.
func (cs niftiClosers) Close() error {
	var first error
	for _, c := range cs {
		if c == nil {
			continue
		}
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
