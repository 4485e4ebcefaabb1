package driver

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Pointer attributes (CUpointer_attribute) and memory types (CUmemorytype)
// that [Driver.PointerDevice] reads.
const (
	attrPointerMemoryType    = 2
	attrPointerDeviceOrdinal = 9
	memoryTypeDevice         = 2
	memoryTypeUnified        = 4
)

// Stream handles with a meaning of their own (CU_STREAM_LEGACY,
// CU_STREAM_PER_THREAD), as __cuda_array_interface__ names them too.
const (
	StreamLegacy    = 1
	StreamPerThread = 2
)

// PointerDevice returns the ordinal of the device whose memory holds ptr,
// memory that another library allocated (CuPy, PyTorch). Host memory,
// pinned or not, is an error.
func (d *Driver) PointerDevice(ptr uintptr) (int, error) {
	var kind uint32
	if err := d.check("cuPointerGetAttribute(memory type)", d.cuPointerGetAttribute(unsafe.Pointer(&kind), attrPointerMemoryType, ptr)); err != nil {
		return 0, fmt.Errorf("cuda: %#x is not device memory: %w", ptr, err)
	}
	if kind != memoryTypeDevice && kind != memoryTypeUnified {
		return 0, fmt.Errorf("cuda: %#x is not device memory (memory type %d)", ptr, kind)
	}
	var ordinal int32
	if err := d.check("cuPointerGetAttribute(device ordinal)", d.cuPointerGetAttribute(unsafe.Pointer(&ordinal), attrPointerDeviceOrdinal, ptr)); err != nil {
		return 0, err
	}
	return int(ordinal), nil
}

// OnDevice reports an error unless every address of ptrs is memory of the
// context's device.
func (c *Context) OnDevice(ptrs ...uintptr) error {
	for _, p := range ptrs {
		dev, err := c.d.PointerDevice(p)
		if err == nil && dev != int(c.device) {
			err = fmt.Errorf("cuda: %#x is memory of device %d, not %d", p, dev, c.device)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// WaitStream waits until the work queued on stream is done, so that what
// it writes may be read on the default stream (call inside [Context.Do]).
// Stream 0 names none: the whole context is synchronized. The legacy
// default stream ([StreamLegacy]) orders itself with the default stream,
// so it needs no wait.
func (c *Context) WaitStream(stream uintptr) error {
	switch stream {
	case 0:
		return c.Sync()
	case StreamLegacy:
		return nil
	}
	return c.d.check("cuStreamSynchronize", c.d.cuStreamSynchronize(stream))
}

// Scratch returns device buffers of at least the given sizes, allocated as
// [Context.AllocAll] allocates them, and keeps them for the next call, as
// the pools of CuPy and PyTorch keep theirs: a call whose sizes fit reuses
// them, a larger one frees them and allocates anew. [Context.Close] frees
// them. The caller must not free them (call inside [Context.Do]).
func (c *Context) Scratch(what string, sizes ...uint64) ([]Buffer, error) {
	fits := len(sizes) <= len(c.scratch)
	for i := 0; fits && i < len(sizes); i++ {
		fits = sizes[i] <= c.scratch[i].Bytes
	}
	if fits {
		return c.scratch[:len(sizes)], nil
	}
	c.Free(c.scratch...)
	c.scratch = nil
	bufs, err := c.AllocAll(what, sizes...)
	if err == nil {
		c.scratch = bufs
	}
	return bufs, err
}

// Copy copies bytes of device memory from src to dst on the default
// stream (call inside [Context.Do]).
func (c *Context) Copy(dst, src uintptr, bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	return c.d.check("cuMemcpyDtoD", c.d.cuMemcpyDtoD(dst, src, bytes))
}

// memcpy2D is the driver's CUDA_MEMCPY2D.
type memcpy2D struct {
	srcXInBytes, srcY uintptr
	srcMemoryType     uint32
	_                 uint32
	srcHost           unsafe.Pointer
	srcDevice         uintptr
	srcArray          uintptr
	srcPitch          uintptr
	dstXInBytes, dstY uintptr
	dstMemoryType     uint32
	_                 uint32
	dstHost           unsafe.Pointer
	dstDevice         uintptr
	dstArray          uintptr
	dstPitch          uintptr
	widthInBytes      uintptr
	height            uintptr
}

// DownloadRowPairs copies pairs of rows of a row-major array in device
// memory at src, rows rowBytes apart, into a host array of 2*pairs rows
// of width bytes (the first width bytes of each row): pair i is rows
// (i+1)*step-1 and (i+1)*step (call inside [Context.Do]).
func (c *Context) DownloadRowPairs(src uintptr, rowBytes, width, step, pairs int) ([]byte, error) {
	buf := make([]byte, 2*pairs*width)
	for k := range 2 { // the upper rows to the even rows of buf, the lower to the odd
		from := src + uintptr((step-1+k)*rowBytes)
		if err := c.downloadRows(buf[k*width:], 2*width, from, step*rowBytes, width, pairs); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// downloadRows copies rows rows of width bytes each from device memory,
// the first at src and each pitch bytes after the one before, into dst,
// each dstPitch bytes after the one before (call inside [Context.Do]).
// dst must hold them all.
func (c *Context) downloadRows(dst []byte, dstPitch int, src uintptr, pitch, width, rows int) error {
	if rows == 0 || width == 0 {
		return nil
	}
	if width > pitch || width > dstPitch || (rows-1)*dstPitch+width > len(dst) {
		return fmt.Errorf("cuda: %d rows of %d bytes do not fit pitches %d and %d in %d bytes", rows, width, pitch, dstPitch, len(dst))
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&dst[0])
	p := &memcpy2D{srcMemoryType: memoryTypeDevice, srcDevice: src, srcPitch: uintptr(pitch),
		dstMemoryType: 1, dstHost: unsafe.Pointer(&dst[0]), dstPitch: uintptr(dstPitch),
		widthInBytes: uintptr(width), height: uintptr(rows)}
	pin.Pin(p)
	return c.d.check("cuMemcpy2D", c.d.cuMemcpy2D(p))
}
