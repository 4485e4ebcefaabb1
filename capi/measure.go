package main

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/measure"
)

// measureArgs are the arguments common to ccl_statistics and ccl_contacts.
type measureArgs struct {
	labels  unsafe.Pointer
	dtype   int
	layout  layout
	count   int
	spacing []float64 // per array axis, or nil
	threads int
}

// parseMeasure checks the labels array and count of a measuring call.
func parseMeasure(labels unsafe.Pointer, dtype, ndim int, shape, strides *C.int64_t, count int64, spacing *C.double, threads int) (measureArgs, error) {
	var m measureArgs
	if dtype != dtUint16 && dtype != dtUint32 {
		return m, errorf(codeType, "cclabel: measuring labels of dtype code %d: use uint16 or uint32", dtype)
	}
	size := 2
	if dtype == dtUint32 {
		size = 4
	}
	l, err := parseLayout(ndim, int64s(shape, ndim), int64s(strides, ndim), size)
	if err != nil {
		return m, err
	}
	if count < 0 || count > int64(l.n) {
		return m, errorf(codeInvalid, "cclabel: %d components in %d elements", count, l.n)
	}
	if threads < 0 {
		return m, errorf(codeInvalid, "cclabel: negative thread count %d", threads)
	}
	m = measureArgs{labels: labels, dtype: dtype, layout: l.measured(), count: int(count), threads: threads}
	if spacing != nil {
		m.spacing = unsafe.Slice((*float64)(unsafe.Pointer(spacing)), ndim)
		for _, s := range m.spacing {
			if !(s > 0 && s <= math.MaxFloat64) {
				return m, errorf(codeInvalid, "cclabel: spacing %v: want finite positive values", m.spacing)
			}
		}
	}
	return m, nil
}

// options returns measure.Options with m's spacing in raster axes.
func (m measureArgs) options() measure.Options {
	var opt measure.Options
	opt.Threads = m.threads
	for c := 0; c < 3; c++ {
		opt.Spacing[c] = 1
		if a := m.layout.axis[c]; a >= 0 && m.spacing != nil {
			opt.Spacing[c] = m.spacing[a]
		}
	}
	return opt
}

// compute runs measure.Compute on m's labels.
func (m measureArgs) compute(opt measure.Options) (*measure.Table, error) {
	l := m.layout
	if l.n == 0 {
		if m.count != 0 {
			return nil, errorf(codeInvalid, "cclabel: %d components in an empty array", m.count)
		}
		return &measure.Table{}, nil
	}
	if m.labels == nil {
		return nil, errorf(codeInvalid, "cclabel: a NULL labels array")
	}
	var t *measure.Table
	var err error
	if m.dtype == dtUint16 {
		t, err = measure.Compute(unsafe.Slice((*uint16)(m.labels), l.n), l.w, l.h, l.d, m.count, opt)
	} else {
		t, err = measure.Compute(unsafe.Slice((*uint32)(m.labels), l.n), l.w, l.h, l.d, m.count, opt)
	}
	if err != nil {
		if codeOf(err) == codeInternal {
			err = errorf(codeInvalid, "%v", err)
		}
		return nil, err
	}
	return t, nil
}

// The columns of ccl_statistics's outputs, for an array of ndim axes:
// ints holds size, min[ndim], max[ndim]; floats holds centroid[ndim],
// eq_diameter, sum, mean, min, max, std, surface, weighted centroid[ndim].
func intColumns(ndim int) int   { return 1 + 2*ndim }
func floatColumns(ndim int) int { return 2*ndim + 7 }

// ccl_statistics measures the components 1..count of a label array
// (uint16 or uint32) into ints and floats, count rows each, coordinates in
// array axis order. See cclabel.h.
//
//export ccl_statistics
func ccl_statistics(labels unsafe.Pointer, dtype C.int, ndim C.int, shape, strides *C.int64_t, count C.int64_t,
	intensity unsafe.Pointer, intensityDtype C.int, intensityStrides *C.int64_t,
	spacing *C.double, surface C.int, threads C.int,
	ints *C.int64_t, floats *C.double, errbuf *C.char, errlen C.size_t) C.int {
	err := guard(func() error {
		m, err := parseMeasure(labels, int(dtype), int(ndim), shape, strides, int64(count), spacing, int(threads))
		if err != nil {
			return err
		}
		opt := m.options()
		opt.Surface = surface != 0
		if intensity != nil {
			kind, err := sampleKind(int(intensityDtype))
			if err != nil {
				return err
			}
			il, err := parseLayout(int(ndim), int64s(shape, int(ndim)), int64s(intensityStrides, int(ndim)), kind.Size())
			if err != nil {
				return err
			}
			if il.n > 0 && (il.fortran != m.layout.fortran) {
				return errorf(codeInvalid, "cclabel: the intensity and the labels are not in the same memory order")
			}
			if il.n > 0 {
				if opt.Intensity, err = il.measured().view(intensity, kind); err != nil {
					return err
				}
			}
		}
		t, err := m.compute(opt)
		if err != nil {
			return err
		}
		if m.count > 0 && (ints == nil || floats == nil) {
			return errorf(codeInvalid, "cclabel: a NULL output")
		}
		nd := int(ndim)
		ic, fc := intColumns(nd), floatColumns(nd)
		iv := unsafe.Slice((*int64)(unsafe.Pointer(ints)), m.count*ic)
		fv := unsafe.Slice((*float64)(unsafe.Pointer(floats)), m.count*fc)
		for k, c := range t.Components {
			ir := iv[k*ic : (k+1)*ic]
			fr := fv[k*fc : (k+1)*fc]
			ir[0] = c.Size
			for r := 0; r < 3; r++ {
				a := m.layout.axis[r]
				if a < 0 || a >= nd {
					continue
				}
				ir[1+a] = int64(c.Min[r])
				ir[1+nd+a] = int64(c.Max[r])
				fr[a] = c.Centroid[r]
				fr[nd+7+a] = c.WCentroid[r]
			}
			copy(fr[nd:nd+7], []float64{c.EqDiameter, c.Sum, c.Mean, c.IMin, c.IMax, c.Std, c.Surface})
		}
		return nil
	})
	return setError(err, errbuf, errlen)
}

// ccl_contacts writes the pairs of components 1..count of a label array
// that share a face into pairs (a, b with a < b), faces and areas, in
// increasing order of a, then b, and their number into *n. With fewer than
// *n rows of room (capacity) it fails with CCL_ERANGE, *n saying how many
// are needed. See cclabel.h.
//
//export ccl_contacts
func ccl_contacts(labels unsafe.Pointer, dtype C.int, ndim C.int, shape, strides *C.int64_t, count C.int64_t,
	spacing *C.double, threads C.int,
	pairs *C.uint32_t, faces *C.int64_t, areas *C.double, capacity C.int64_t, n *C.int64_t,
	errbuf *C.char, errlen C.size_t) C.int {
	err := guard(func() error {
		m, err := parseMeasure(labels, int(dtype), int(ndim), shape, strides, int64(count), spacing, int(threads))
		if err != nil {
			return err
		}
		opt := m.options()
		opt.Contacts = true
		t, err := m.compute(opt)
		if err != nil {
			return err
		}
		k := len(t.Contacts)
		if n != nil {
			*n = C.int64_t(k)
		}
		if int64(k) > int64(capacity) {
			return errorf(codeRange, "cclabel: contacts: room for %d pairs, %d needed", int64(capacity), k)
		}
		if k == 0 {
			return nil
		}
		if pairs == nil || faces == nil || areas == nil {
			return errorf(codeInvalid, "cclabel: a NULL output")
		}
		pv := unsafe.Slice((*uint32)(unsafe.Pointer(pairs)), 2*k)
		fv := unsafe.Slice((*int64)(unsafe.Pointer(faces)), k)
		av := unsafe.Slice((*float64)(unsafe.Pointer(areas)), k)
		for i, c := range t.Contacts {
			pv[2*i], pv[2*i+1] = c.A, c.B
			fv[i], av[i] = c.Faces, c.Area
		}
		return nil
	})
	return setError(err, errbuf, errlen)
}
