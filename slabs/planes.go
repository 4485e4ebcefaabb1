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
	plane := r.Width * r.Height
	lo, hi := z0*plane, z1*plane
	var data any
	switch d := r.Data.(type) {
	case []uint8:
		data = d[lo:hi]
	case []uint16:
		data = d[lo:hi]
	case []uint32:
		data = d[lo:hi]
	case []uint64:
		data = d[lo:hi]
	case []int8:
		data = d[lo:hi]
	case []int16:
		data = d[lo:hi]
	case []int32:
		data = d[lo:hi]
	case []int64:
		data = d[lo:hi]
	case []float32:
		data = d[lo:hi]
	case []float64:
		data = d[lo:hi]
	default:
		return nil, fmt.Errorf("slabs: unsupported sample type %T", r.Data)
	}
	return &imagegraph.Raster{Width: r.Width, Height: r.Height, Depth: z1 - z0, Kind: r.Kind, Data: data}, nil
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

// NewPlanes allocates a zeroed raster of depth planes of kind: a buffer
// for slabs.
func NewPlanes(width, height, depth int, kind imagegraph.SampleKind) (*imagegraph.Raster, error) {
	n, err := imagegraph.PixelCount(width, height, depth)
	if err != nil {
		return nil, fmt.Errorf("slabs: %w", err)
	}
	var data any
	switch kind {
	case imagegraph.Uint8:
		data = make([]uint8, n)
	case imagegraph.Uint16:
		data = make([]uint16, n)
	case imagegraph.Uint32, imagegraph.RGB:
		data = make([]uint32, n)
	case imagegraph.Uint64:
		data = make([]uint64, n)
	case imagegraph.Int8:
		data = make([]int8, n)
	case imagegraph.Int16:
		data = make([]int16, n)
	case imagegraph.Int32:
		data = make([]int32, n)
	case imagegraph.Int64:
		data = make([]int64, n)
	case imagegraph.Float32:
		data = make([]float32, n)
	case imagegraph.Float64:
		data = make([]float64, n)
	default:
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
	var n int
	switch d := dst.Data.(type) {
	case []uint8:
		n = copyAs(d, from.Data)
	case []uint16:
		n = copyAs(d, from.Data)
	case []uint32:
		n = copyAs(d, from.Data)
	case []uint64:
		n = copyAs(d, from.Data)
	case []int8:
		n = copyAs(d, from.Data)
	case []int16:
		n = copyAs(d, from.Data)
	case []int32:
		n = copyAs(d, from.Data)
	case []int64:
		n = copyAs(d, from.Data)
	case []float32:
		n = copyAs(d, from.Data)
	case []float64:
		n = copyAs(d, from.Data)
	}
	if n != plane {
		return fmt.Errorf("slabs: a slab of %T samples after slabs of %T", from.Data, dst.Data)
	}
	return nil
}

// copyAs copies src into dst when src is a slice of dst's type and
// returns the count copied (0 for another type).
func copyAs[T any](dst []T, src any) int {
	s, ok := src.([]T)
	if !ok {
		return 0
	}
	return copy(dst, s)
}
