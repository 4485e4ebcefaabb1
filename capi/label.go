package main

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import (
	"encoding/json"
	"sync"
	"unsafe"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
)

// The rule modes of ccl_label (CCL_MULTILABEL ... in cclabel.h).
const (
	modeMultilabel = 0
	modeBinary     = 1
	modeThreshold  = 2
)

// The label orders of ccl_label.
const (
	orderFirst = 0 // by first occurrence in memory order
	orderSize  = 1 // by decreasing size, ties by first occurrence
)

// The backends of ccl_label and ccl_graph_components, by code.
var backends = [...]cclabel.Backend{cclabel.BackendAuto, cclabel.BackendGPU, cclabel.BackendCPU, cclabel.BackendSerial}

type labelerKey struct {
	backend cclabel.Backend
	threads int
}

// labelers holds one Labeler per backend and thread count, kept for the
// life of the process so that a GPU context opens once.
var labelers struct {
	sync.Mutex
	m map[labelerKey]*cclabel.Labeler
}

// labeler returns the kept Labeler of a backend code and thread count
// (0: all cores).
func labeler(backend, threads int) (*cclabel.Labeler, error) {
	if backend < 0 || backend >= len(backends) {
		return nil, errorf(codeInvalid, "cclabel: unknown backend code %d", backend)
	}
	if threads < 0 {
		return nil, errorf(codeInvalid, "cclabel: negative thread count %d", threads)
	}
	k := labelerKey{backends[backend], threads}
	labelers.Lock()
	defer labelers.Unlock()
	if l := labelers.m[k]; l != nil {
		return l, nil
	}
	l, err := cclabel.New(cclabel.Options{Backend: k.backend, Threads: threads})
	if err != nil {
		return nil, errorf(codeDevice, "%v", err)
	}
	if labelers.m == nil {
		labelers.m = map[labelerKey]*cclabel.Labeler{}
	}
	labelers.m[k] = l
	return l, nil
}

// guard runs f, turning a panic into a CCL_EINTERNAL error: a panic must
// not unwind into the C caller.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errorf(codeInternal, "cclabel: internal error: %v", p)
		}
	}()
	return f()
}

// labelArgs are the arguments of ccl_label past the arrays.
type labelArgs struct {
	mode       int
	threshold  float64
	invert     bool
	background float64
	conn       int
	order      int
	backend    int
	threads    int
	minSize    int64
	largest    int64
}

// rule returns the imagegraph.Rule of a.
func (a labelArgs) rule() (imagegraph.Rule, error) {
	var r imagegraph.Rule
	switch a.mode {
	case modeMultilabel:
		r.Mode = imagegraph.Multilabel
	case modeBinary:
		r.Mode = imagegraph.Binary
	case modeThreshold:
		r.Mode = imagegraph.Threshold
		r.Threshold = a.threshold
		r.Invert = a.invert
	default:
		return r, errorf(codeInvalid, "cclabel: unknown rule mode %d", a.mode)
	}
	if a.invert && a.mode != modeThreshold {
		return r, errorf(codeInvalid, "cclabel: invert needs a threshold")
	}
	if err := r.Validate(); err != nil {
		return r, errorf(codeInvalid, "%v", err)
	}
	return r, nil
}

// ruleConn returns a's rule and the raster connectivity of a's
// connectivity for an array of layout l.
func (a labelArgs) ruleConn(l layout) (imagegraph.Rule, int, error) {
	rule, err := a.rule()
	if err != nil {
		return rule, 0, err
	}
	conn, err := l.conn(a.conn)
	return rule, conn, err
}

// labelInto labels the array src of layout l under a into out, an array of
// the same layout and of dtype outType (uint16, uint32, uint64, int32 or
// int64), and returns the component count. The uint32 labels are written
// in out itself; the other types are converted from a uint32 labeling, or
// for uint16 written narrow by the engine when it can.
func labelInto(src unsafe.Pointer, kind imagegraph.SampleKind, l layout, out unsafe.Pointer, outType int, a labelArgs) (int, error) {
	rule, conn, err := a.ruleConn(l)
	if err != nil {
		return 0, err
	}
	if a.order != orderFirst && a.order != orderSize {
		return 0, errorf(codeInvalid, "cclabel: unknown order code %d", a.order)
	}
	switch outType {
	case dtUint16, dtUint32, dtUint64, dtInt32, dtInt64:
	default:
		return 0, errorf(codeType, "cclabel: labels of dtype code %d: use uint16, uint32, uint64, int32 or int64", outType)
	}
	if a.minSize < 0 || a.largest < 0 {
		return 0, errorf(codeInvalid, "cclabel: negative min size or largest count")
	}
	lab, err := labeler(a.backend, a.threads)
	if err != nil {
		return 0, err
	}
	if l.n == 0 {
		return 0, nil
	}
	if out == nil {
		return 0, errorf(codeInvalid, "cclabel: a NULL output")
	}
	r, err := l.view(src, kind)
	if err != nil {
		return 0, err
	}
	if a.background != 0 {
		if rule.Mode != imagegraph.Multilabel {
			return 0, errorf(codeInvalid, "cclabel: a background other than 0 needs the multilabel rule")
		}
		if r, err = cclabel.WithBackground(r, a.background, a.threads); err != nil {
			return 0, err
		}
	}
	filter := a.minSize > 1 || a.largest > 0
	var res *cclabel.RasterResult
	switch {
	case outType == dtUint32:
		dst := unsafe.Slice((*uint32)(out), l.n)
		if res, err = lab.LabelRaster(r, rule, conn, dst); err != nil {
			return 0, err
		}
		if &res.Labels.Data[0] != &dst[0] {
			copy(dst, res.Labels.Data)
			res.Labels.Data = dst
		}
	case outType == dtUint16 && !filter:
		dst16 := unsafe.Slice((*uint16)(out), l.n)
		if res, err = lab.LabelRasterNarrow(r, rule, conn, nil, dst16); err != nil {
			return 0, err
		}
		if res.Narrow != nil && &res.Narrow[0] != &dst16[0] {
			copy(dst16, res.Narrow)
			res.Narrow = dst16
		}
	default:
		if res, err = lab.LabelRaster(r, rule, conn, nil); err != nil {
			return 0, err
		}
	}
	if res.Labels.Data != nil && filter {
		res.Labels.Filter(a.minSize, int(min(a.largest, int64(res.Labels.Count))))
	}
	if a.order == orderSize {
		if err := lab.OrderBySize(res, nil); err != nil {
			return 0, err
		}
	}
	count := res.Labels.Count
	if res.Narrow != nil || outType == dtUint32 {
		return count, nil
	}
	return count, widen(res.Labels.Data, count, out, outType, lab.Threads())
}

// widen writes the uint32 labels src into out, of dtype outType, on
// threads goroutines. It fails with CCL_ERANGE when count does not fit.
func widen(src []uint32, count int, out unsafe.Pointer, outType int, threads int) error {
	n := len(src)
	switch outType {
	case dtUint16:
		if count > 1<<16-1 {
			return errorf(codeRange, "cclabel: %d components do not fit uint16 labels", count)
		}
		convert(src, unsafe.Slice((*uint16)(out), n), threads)
	case dtUint64:
		convert(src, unsafe.Slice((*uint64)(out), n), threads)
	case dtInt32:
		if int64(count) > 1<<31-1 {
			return errorf(codeRange, "cclabel: %d components do not fit int32 labels", count)
		}
		convert(src, unsafe.Slice((*int32)(out), n), threads)
	case dtInt64:
		convert(src, unsafe.Slice((*int64)(out), n), threads)
	default:
		return errorf(codeType, "cclabel: labels of dtype code %d", outType)
	}
	return nil
}

// convert copies src into dst, converting each label, on threads
// goroutines (0: GOMAXPROCS).
func convert[T uint16 | uint64 | int32 | int64](src []uint32, dst []T, threads int) {
	parts := max(1, threads)
	if threads == 0 {
		parts = defaultThreads()
	}
	var wg sync.WaitGroup
	chunk := (len(src) + parts - 1) / parts
	for lo := 0; lo < len(src); lo += chunk {
		hi := min(lo+chunk, len(src))
		wg.Add(1)
		go func(s []uint32, d []T) {
			defer wg.Done()
			for i, v := range s {
				d[i] = T(v)
			}
		}(src[lo:hi], dst[lo:hi])
	}
	wg.Wait()
}

// ccl_label labels the array data (dtype, ndim axes of shape, byte
// strides; C or Fortran contiguous) into out, an array of the same shape
// and memory order of dtype out_dtype. See cclabel.h.
//
//export ccl_label
func ccl_label(data unsafe.Pointer, dtype C.int, ndim C.int, shape, strides *C.int64_t,
	out unsafe.Pointer, outDtype C.int,
	mode C.int, threshold C.double, invert C.int, background C.double,
	connectivity C.int, order C.int, backend C.int, threads C.int,
	minSize C.int64_t, largest C.int64_t,
	count *C.int64_t, errbuf *C.char, errlen C.size_t) C.int {
	err := guard(func() error {
		kind, l, err := parseArray(dtype, ndim, shape, strides)
		if err != nil {
			return err
		}
		n, err := labelInto(data, kind, l, out, int(outDtype), labelArgs{
			mode: int(mode), threshold: float64(threshold), invert: invert != 0, background: float64(background),
			conn: int(connectivity), order: int(order), backend: int(backend), threads: int(threads),
			minSize: int64(minSize), largest: int64(largest),
		})
		if err != nil {
			return err
		}
		if count != nil {
			*count = C.int64_t(n)
		}
		return nil
	})
	return setError(err, errbuf, errlen)
}

// ccl_devices writes the GPU status (cclabel.Devices) as JSON into buf,
// NUL-terminated, and its length without the NUL into *needed. A buf too
// small fails with CCL_ERANGE, *needed saying how large it must be.
//
//export ccl_devices
func ccl_devices(buf *C.char, n C.size_t, needed *C.size_t, errbuf *C.char, errlen C.size_t) C.int {
	err := guard(func() error {
		js, err := json.Marshal(cclabel.Devices())
		if err != nil {
			return err
		}
		if needed != nil {
			*needed = C.size_t(len(js))
		}
		if buf == nil || int(n) < len(js)+1 {
			return errorf(codeRange, "cclabel: devices: %d bytes needed", len(js)+1)
		}
		writeMessage(unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n)), string(js))
		return nil
	})
	return setError(err, errbuf, errlen)
}

// ccl_abi_version returns the version of this ABI: 1.
//
//export ccl_abi_version
func ccl_abi_version() C.int { return 1 }

// int64s returns the n values at p: nil for a NULL p, or for n outside
// 1..3, which parseLayout refuses before reading any.
func int64s(p *C.int64_t, n int) []int64 {
	if p == nil || n <= 0 || n > 3 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(p)), n)
}

// parseArray returns the sample kind and layout of an array argument:
// dtype code, ndim axes of shape and byte strides.
func parseArray(dtype, ndim C.int, shape, strides *C.int64_t) (imagegraph.SampleKind, layout, error) {
	kind, err := sampleKind(int(dtype))
	if err != nil {
		return 0, layout{}, err
	}
	l, err := parseLayout(int(ndim), int64s(shape, int(ndim)), int64s(strides, int(ndim)), kind.Size())
	return kind, l, err
}
