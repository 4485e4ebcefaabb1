package slabs

import (
	"fmt"

	"github.com/cclabel/cclabel/imagegraph"
)

// Planes returns planes z0..z1-1 of r as a raster sharing r's samples.
func Planes(r *imagegraph.Raster, z0, z1 int) (*imagegraph.Raster, error) {
	if z0 < 0 || z1 > r.Depth || z0 >= z1 {
		return nil, fmt.Errorf("slabs: planes %d..%d of a raster of depth %d", z0, z1, r.Depth)
	}
	if r.Data == nil {
		return nil, fmt.Errorf("slabs: unsupported sample type %T", r.Data)
	}
	plane := r.Width * r.Height
	return &imagegraph.Raster{Width: r.Width, Height: r.Height, Depth: z1 - z0, Kind: r.Kind, Data: r.Data.Slice(z0*plane, z1*plane)}, nil
}

// seamRaster is a scratch raster of two planes: the last plane of one
// slab and the first plane of the next, copied in.
type seamRaster struct {
	r *imagegraph.Raster
}

// newSeamRaster returns a two-plane scratch raster of r's sample type.
func newSeamRaster(width, height int, kind imagegraph.SampleKind) (*seamRaster, error) {
	r, err := NewPlanes(width, height, 2, kind)
	if err != nil {
		return nil, err
	}
	return &seamRaster{r: r}, nil
}

// NewPlanes allocates a zeroed raster of depth planes of kind. It serves as a
// buffer for slabs.
func NewPlanes(width, height, depth int, kind imagegraph.SampleKind) (*imagegraph.Raster, error) {
	n, err := imagegraph.PixelCount(width, height, depth)
	if err != nil {
		return nil, fmt.Errorf("slabs: %w", err)
	}
	data, err := imagegraph.NewSamples(kind, n)
	if err != nil {
		return nil, fmt.Errorf("slabs: unsupported sample kind %v", kind)
	}
	return &imagegraph.Raster{Width: width, Height: height, Depth: depth, Kind: kind, Data: data}, nil
}

// setPlane copies plane z of src into plane at (0 or 1) of the seam.
func (s *seamRaster) setPlane(at int, src *imagegraph.Raster, z int) error {
	plane := s.r.Width * s.r.Height
	dst, err := Planes(s.r, at, at+1)
	if err != nil {
		return err
	}
	from, err := Planes(src, z, z+1)
	if err != nil {
		return err
	}
	if from.Kind != dst.Kind {
		return fmt.Errorf("slabs: a slab of %v samples after slabs of %v", from.Kind, dst.Kind)
	}
	if from.Data.Kind() != dst.Data.Kind() {
		return fmt.Errorf("slabs: a slab of %v samples after slabs of %v", from.Data.Kind(), dst.Data.Kind())
	}
	if n := copy(dst.Data.Bytes(), from.Data.Bytes()); n != plane*dst.Kind.Size() {
		return fmt.Errorf("slabs: a plane of %d bytes, want %d", n, plane*dst.Kind.Size())
	}
	return nil
}
