package slabs

import (
	"fmt"

	"github.com/cclabel/cclabel/imagegraph"
)

// Source gives [Label] the planes of a volume a slab at a time.
type Source interface {
	// Size returns the width and height of the planes and their count.
	Size() (width, height, depth int)
	// Planes returns planes z0..z1-1 as a raster. Label asks for each
	// slab in order and reads the raster only until its next call,
	// except with lanes (Options.Lanes), which only a RasterSource
	// serves.
	Planes(z0, z1 int) (*imagegraph.Raster, error)
}

// RasterSource is a [Source] of a raster in memory. Its slabs share the
// raster's samples.
type RasterSource struct {
	r    *imagegraph.Raster
	wait func(samples int) error
}

// NewRasterSource returns a source of the planes of r. When wait is not
// nil, r is still being filled in order (a file being read): before
// giving planes z0..z1-1, Planes calls wait with the count of samples up
// to plane z1, which blocks until they are in place or fails. With lanes
// wait is called from several goroutines.
func NewRasterSource(r *imagegraph.Raster, wait func(samples int) error) *RasterSource {
	return &RasterSource{r: r, wait: wait}
}

// Size returns r's width, height and depth.
func (s *RasterSource) Size() (width, height, depth int) { return s.r.Width, s.r.Height, s.r.Depth }

// Planes returns planes z0..z1-1 of r, sharing its samples.
func (s *RasterSource) Planes(z0, z1 int) (*imagegraph.Raster, error) {
	if s.wait != nil {
		if err := s.wait(z1 * s.r.Width * s.r.Height); err != nil {
			return nil, err
		}
	}
	return Planes(s.r, z0, z1)
}

// PlaneReader reads the planes of a volume in order.
type PlaneReader interface {
	// ReadPlanes fills r, whole planes of the volume's width, height and
	// sample kind, with the next r.Depth planes.
	ReadPlanes(r *imagegraph.Raster) error
}

// ReaderSource is a [Source] of planes read in order from a [PlaneReader]. It
// reads into a buffer of one slab, reused from slab to slab.
type ReaderSource struct {
	rd                   PlaneReader
	width, height, depth int
	kind                 imagegraph.SampleKind
	buf                  *imagegraph.Raster
	next                 int // the plane rd reads next
}

// NewReaderSource returns a [ReaderSource] of depth planes read from rd. The
// planes are width x height samples of kind, starting at the plane rd reads
// next.
func NewReaderSource(rd PlaneReader, width, height, depth int, kind imagegraph.SampleKind) *ReaderSource {
	return &ReaderSource{rd: rd, width: width, height: height, depth: depth, kind: kind}
}

// Size returns the planes' width and height and their count.
func (s *ReaderSource) Size() (width, height, depth int) { return s.width, s.height, s.depth }

// Planes reads planes z0..z1-1, the next ones, into the buffer.
func (s *ReaderSource) Planes(z0, z1 int) (*imagegraph.Raster, error) {
	if z0 != s.next || z1 <= z0 || z1 > s.depth {
		return nil, fmt.Errorf("slabs: planes %d..%d asked of a reader at plane %d of %d", z0, z1-1, s.next, s.depth)
	}
	if s.buf == nil || s.buf.Depth < z1-z0 {
		buf, err := NewPlanes(s.width, s.height, z1-z0, s.kind)
		if err != nil {
			return nil, err
		}
		s.buf = buf
	}
	r, err := Planes(s.buf, 0, z1-z0)
	if err != nil {
		return nil, err
	}
	if err := s.rd.ReadPlanes(r); err != nil {
		return nil, err
	}
	s.next = z1
	return r, nil
}
