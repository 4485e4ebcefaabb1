package main

import (
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
)

// The dtype codes of the C ABI (CCL_BOOL ... CCL_FLOAT64 in cclabel.h).
const (
	dtBool    = 1
	dtUint8   = 2
	dtUint16  = 3
	dtUint32  = 4
	dtUint64  = 5
	dtInt8    = 6
	dtInt16   = 7
	dtInt32   = 8
	dtInt64   = 9
	dtFloat32 = 10
	dtFloat64 = 11
)

// sampleKind returns the raster sample kind of a dtype code; a bool array
// is read as uint8 (NumPy stores it as bytes 0 and 1).
func sampleKind(dtype int) (imagegraph.SampleKind, error) {
	if dtype > 0 && dtype < len(sampleKinds) {
		return sampleKinds[dtype], nil
	}
	return 0, errorf(codeType, "cclabel: unsupported dtype code %d", dtype)
}

// sampleKinds is the sample kind of each dtype code.
var sampleKinds = [...]imagegraph.SampleKind{
	dtBool: imagegraph.Uint8, dtUint8: imagegraph.Uint8, dtUint16: imagegraph.Uint16,
	dtUint32: imagegraph.Uint32, dtUint64: imagegraph.Uint64, dtInt8: imagegraph.Int8,
	dtInt16: imagegraph.Int16, dtInt32: imagegraph.Int32, dtInt64: imagegraph.Int64,
	dtFloat32: imagegraph.Float32, dtFloat64: imagegraph.Float64,
}

// layout is how an array of 1 to 3 axes lies in memory: as a raster,
// x fastest, and which array axis each raster axis is.
type layout struct {
	ndim    int
	shape   [3]int
	n       int  // the number of elements
	fortran bool // x is axis 0 (else x is the last axis)
	// w, h and d are the raster's sides; axis[c] is the array axis of
	// raster axis c (x, y, z), -1 past ndim.
	w, h, d int
	axis    [3]int
}

// parseLayout checks an array of ndim axes of the given shape and byte
// strides, with items of itemsize bytes, and returns its layout. The array
// must be C or Fortran contiguous (axes of length 1 may have any stride);
// C order wins when both hold. It fails, before anything is allocated, on
// sizes past imagegraph.MaxVoxels.
func parseLayout(ndim int, shape, strides []int64, itemsize int) (layout, error) {
	var l layout
	if ndim < 1 || ndim > 3 {
		return l, errorf(codeInvalid, "cclabel: arrays of 1 to 3 dimensions are labeled, not %d", ndim)
	}
	if len(shape) < ndim || len(strides) < ndim {
		return l, errorf(codeInvalid, "cclabel: shape or strides missing")
	}
	l.ndim = ndim
	n := int64(1)
	for a := 0; a < ndim; a++ {
		s := shape[a]
		if s < 0 {
			return l, errorf(codeInvalid, "cclabel: negative side %d", s)
		}
		if s > imagegraph.MaxVoxels {
			return l, errorf(codeTooLarge, "cclabel: side %d past the limit of %d elements", s, int64(imagegraph.MaxVoxels))
		}
		l.shape[a] = int(s)
		n *= s
		if n > imagegraph.MaxVoxels {
			return l, errorf(codeTooLarge, "cclabel: more than %d elements", int64(imagegraph.MaxVoxels))
		}
	}
	l.n = int(n)
	contiguous := func(order []int) bool {
		want := int64(itemsize)
		for _, a := range order {
			if shape[a] != 1 && strides[a] != want {
				return false
			}
			want *= shape[a]
		}
		return true
	}
	cOrder := make([]int, ndim) // fastest axis first
	fOrder := make([]int, ndim)
	for k := 0; k < ndim; k++ {
		cOrder[k] = ndim - 1 - k
		fOrder[k] = k
	}
	var order []int
	switch {
	case n == 0 || contiguous(cOrder):
		order = cOrder
	case contiguous(fOrder):
		order = fOrder
		l.fortran = true
	default:
		return l, errorf(codeInvalid, "cclabel: the array is neither C nor Fortran contiguous")
	}
	l.axis = [3]int{-1, -1, -1}
	sides := [3]int{1, 1, 1}
	for c, a := range order {
		l.axis[c] = a
		sides[c] = int(shape[a])
	}
	l.w, l.h, l.d = sides[0], sides[1], sides[2]
	return l, nil
}

// measured returns l as the measuring engine is to take it: an array of
// three axes is measured in 3D (surfaces, spheres) even with one plane, its
// sides of 1 moved to the fastest raster axes, which keeps the memory order;
// arrays of one or two axes, and a single element, are measured in 2D.
func (l layout) measured() layout {
	for k := 0; k < 2 && l.ndim == 3 && l.d == 1 && l.n > 1; k++ {
		l.w, l.h, l.d = 1, l.w, l.h
		l.axis = [3]int{l.axis[2], l.axis[0], l.axis[1]}
	}
	return l
}

// is3D reports whether the raster of l is 3D (more than one plane).
func (l layout) is3D() bool { return l.d > 1 }

// conn returns the raster connectivity of an array connectivity: 0 is the
// full one (8 or 26, as cclabel's CLI); 1D arrays take 2, 4 or 8; an array
// of 3 axes with one plane is labeled in 2D, 6 becoming 4 and 18 or 26
// becoming 8 (as the CLI does for 2D volume files).
func (l layout) conn(c int) (int, error) {
	bad := func() (int, error) {
		return 0, errorf(codeInvalid, "cclabel: connectivity %d for an array of %d dimensions", c, l.ndim)
	}
	switch l.ndim {
	case 1:
		switch c {
		case 0, 2, 4, 8:
			return 4, nil
		}
		return bad()
	case 2:
		switch c {
		case 0:
			return 8, nil
		case 4, 8:
			return c, nil
		}
		return bad()
	}
	switch c {
	case 0, 6, 18, 26:
	default:
		return bad()
	}
	if l.is3D() {
		if c == 0 {
			return 26, nil
		}
		return c, nil
	}
	if c == 6 {
		return 4, nil
	}
	return 8, nil
}

// view returns the raster over n items of kind at p, sharing its memory.
func (l layout) view(p unsafe.Pointer, kind imagegraph.SampleKind) (*imagegraph.Raster, error) {
	if p == nil {
		return nil, errorf(codeInvalid, "cclabel: a NULL array")
	}
	b := unsafe.Slice((*byte)(p), l.n*kind.Size())
	data, err := imagegraph.ViewBytes(kind, b)
	if err != nil {
		return nil, errorf(codeInvalid, "%v", err)
	}
	return &imagegraph.Raster{Width: l.w, Height: l.h, Depth: l.d, Kind: kind, Data: data}, nil
}
