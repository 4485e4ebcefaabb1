package main

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import (
	"errors"
	"sync"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
)

// gpus holds the driver that finds which GPU owns an address, and one
// [cclabel.Labeler] per GPU, kept for the life of the process: each opens
// its GPU's primary context once, the context CuPy and PyTorch use too.
var gpus struct {
	sync.Mutex
	driver   *cuda.Driver
	labelers map[int]*cclabel.Labeler
}

// gpuLabeler returns the kept labeler of the GPU whose memory holds ptr.
func gpuLabeler(ptr uintptr) (*cclabel.Labeler, error) {
	gpus.Lock()
	defer gpus.Unlock()
	if gpus.driver == nil {
		d, err := cuda.Open()
		if err != nil {
			return nil, errorf(codeDevice, "%v", err)
		}
		gpus.driver, gpus.labelers = d, map[int]*cclabel.Labeler{}
	}
	ordinal, err := gpus.driver.PointerDevice(ptr)
	if err != nil {
		return nil, errorf(codeInvalid, "%v", err)
	}
	if l := gpus.labelers[ordinal]; l != nil {
		return l, nil
	}
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendGPU, GPU: ordinal})
	if err != nil {
		return nil, errorf(codeDevice, "%v", err)
	}
	gpus.labelers[ordinal] = l
	return l, nil
}

// labelDevice labels the device array at data (kind, layout l) into the
// device array out of dtype outType (uint32 or int32, the same bits, or
// uint16) under a's rule and connectivity, waiting for stream first, and
// returns the component count.
func labelDevice(data uintptr, kind imagegraph.SampleKind, l layout, out uintptr, outType int, a labelArgs, stream uintptr) (int, error) {
	rule, conn, err := a.ruleConn(l)
	if err != nil {
		return 0, err
	}
	if !cuda.SupportsRaster(&imagegraph.Raster{Kind: kind}) {
		return 0, errorf(codeType, "cclabel: the GPU labels uint8, uint16, int16, uint32, int32 and float32 samples, not %s", kind)
	}
	if outType != dtUint32 && outType != dtInt32 && outType != dtUint16 {
		return 0, errorf(codeType, "cclabel: GPU labels of dtype code %d: use uint32, int32 or uint16", outType)
	}
	if l.n == 0 {
		return 0, nil
	}
	if data == 0 || out == 0 || data%16 != 0 || out%16 != 0 {
		return 0, errorf(codeInvalid, "cclabel: device arrays at %#x and %#x: both must be 16-byte aligned, not NULL", data, out)
	}
	lab, err := gpuLabeler(data)
	if err != nil {
		return 0, err
	}
	g := cuda.DeviceGrid{Samples: data, Kind: kind, Width: l.w, Height: l.h, Depth: l.d,
		Labels: out, Narrow: outType == dtUint16, Stream: stream}
	n, err := lab.LabelDevice(g, rule, conn)
	if err != nil {
		return 0, errorf(codeDevice, "%v", err)
	}
	if g.Narrow && n > cuda.MaxNarrowCount {
		return 0, errorf(codeRange, "cclabel: %d components do not fit uint16 labels", n)
	}
	return n, nil
}

// ccl_label_device labels a CUDA array where it lives: data (dtype, ndim
// axes of shape, byte strides; C or Fortran contiguous) into out, a device
// array of the same shape and memory order of dtype out_dtype (uint32,
// int32 or uint16), on the GPU that owns data, in its primary context.
// It waits for stream (a CUstream; 0 synchronizes the context, 1 is the
// legacy default stream, 2 the per-thread one) before it reads data, and
// returns once out is written. See cclabel.h.
//
//export ccl_label_device
func ccl_label_device(data C.uintptr_t, dtype C.int, ndim C.int, shape, strides *C.int64_t,
	out C.uintptr_t, outDtype C.int,
	mode C.int, threshold C.double, invert C.int, connectivity C.int, stream C.uintptr_t,
	count *C.int64_t, errbuf *C.char, errlen C.size_t) C.int {
	err := guard(func() error {
		kind, l, err := parseArray(dtype, ndim, shape, strides)
		if err != nil {
			return err
		}
		n, err := labelDevice(uintptr(data), kind, l, uintptr(out), int(outDtype), labelArgs{
			mode: int(mode), threshold: float64(threshold), invert: invert != 0, conn: int(connectivity),
		}, uintptr(stream))
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

// ccl_device_release closes the labelers the library keeps, those of
// ccl_label_device and those of ccl_label and ccl_graph_components: their
// GPU contexts and the scratch memory kept between calls are freed. A
// later call opens them again. See cclabel.h.
//
//export ccl_device_release
func ccl_device_release(errbuf *C.char, errlen C.size_t) C.int {
	err := guard(func() error {
		gpus.Lock()
		defer gpus.Unlock()
		var err error
		for ordinal, l := range gpus.labelers {
			err = errors.Join(err, l.Close())
			delete(gpus.labelers, ordinal)
		}
		labelers.Lock()
		defer labelers.Unlock()
		for k, l := range labelers.m {
			err = errors.Join(err, l.Close())
			delete(labelers.m, k)
		}
		if err != nil {
			return errorf(codeDevice, "%v", err)
		}
		return nil
	})
	return setError(err, errbuf, errlen)
}
