package driver

import (
	"runtime"
	"unsafe"

	"github.com/cclabel/cclabel/internal/parallel"
)

// stagingChunk is the size of each of a context's two pinned host
// buffers. Copies between the device and Go memory go through them in
// chunks: the DMA engine fills one while host threads empty the other.
const stagingChunk = 32 << 20

// stagingCopiers is how many goroutines copy one chunk between a pinned
// buffer and Go memory: enough to take the fresh Go pages' faults in
// parallel and to reach the memory bandwidth.
const stagingCopiers = 8

// staging is a context's pair of pinned host buffers and the events that
// mark each one's copy done.
type staging struct {
	buf  [2]unsafe.Pointer
	done [2]Event
}

// stagingBuffers returns the context's staging buffers, allocating them on
// first use (call inside [Context.Do]); nil when the driver cannot pin
// host memory, and the caller copies another way.
func (c *Context) stagingBuffers() *staging {
	if c.stage != nil || c.stageFailed {
		return c.stage
	}
	st := &staging{}
	ok := true
	for i := range st.buf {
		if c.d.cuMemHostAlloc(&st.buf[i], stagingChunk, 0) != 0 {
			ok = false
			break
		}
		e, err := c.NewEvent()
		if err != nil {
			ok = false
			break
		}
		st.done[i] = e
	}
	if !ok {
		c.freeStaging(st)
		c.stageFailed = true
		return nil
	}
	c.stage = st
	return st
}

// freeStaging releases staging buffers and events (call inside [Context.Do]).
func (c *Context) freeStaging(st *staging) {
	for i := range st.buf {
		if st.buf[i] != nil {
			c.d.cuMemFreeHost(st.buf[i])
			st.buf[i] = nil
		}
		if st.done[i] != 0 {
			c.Destroy(st.done[i])
			st.done[i] = 0
		}
	}
}

// DownloadStaged copies device memory into Go memory through the pinned
// buffers.
//
// It copies bytes at src to dst: chunk k+1 is on the DMA engine while
// chunk k is copied out on several goroutines. Host memory is never
// page-locked in place, so the cost per byte does not grow with the size.
// A copy of a quarter chunk or less, or one without staging buffers, goes
// from pageable memory. Call it inside [Context.Do].
func (c *Context) DownloadStaged(dst unsafe.Pointer, src uintptr, bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	st := c.stagingBuffers()
	if st == nil || bytes <= stagingChunk/4 {
		return c.d.check("cuMemcpyDtoH", c.d.cuMemcpyDtoH(dst, src, bytes))
	}
	chunks := int((bytes + stagingChunk - 1) / stagingChunk)
	span := func(k int) (uint64, uint64) {
		off := uint64(k) * stagingChunk
		return off, min(stagingChunk, bytes-off)
	}
	issue := func(k int) error {
		off, n := span(k)
		b := k % 2
		if err := c.d.check("cuMemcpyDtoHAsync", c.d.cuMemcpyDtoHAsync(st.buf[b], src+uintptr(off), n, 0)); err != nil {
			return err
		}
		return c.Record(st.done[b])
	}
	for k := range min(2, chunks) {
		if err := issue(k); err != nil {
			return err
		}
	}
	for k := range chunks {
		b := k % 2
		if err := c.d.check("cuEventSynchronize", c.d.cuEventSynchronize(uintptr(st.done[b]))); err != nil {
			return err
		}
		off, n := span(k)
		copyParallel(unsafe.Add(dst, off), st.buf[b], n)
		if k+2 < chunks {
			if err := issue(k + 2); err != nil {
				return err
			}
		}
	}
	return nil
}

// UploadStaged copies Go memory to device memory through the pinned
// buffers.
//
// It copies bytes at src to dst: chunk k is copied in on several
// goroutines while chunk k-1 is on the DMA engine. Without staging buffers
// it copies from pageable memory. Call it inside [Context.Do].
func (c *Context) UploadStaged(dst uintptr, src unsafe.Pointer, bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	st := c.stagingBuffers()
	if st == nil || bytes <= stagingChunk/4 {
		return c.d.check("cuMemcpyHtoD", c.d.cuMemcpyHtoD(dst, src, bytes))
	}
	for k := 0; uint64(k)*stagingChunk < bytes; k++ {
		off := uint64(k) * stagingChunk
		n := min(stagingChunk, bytes-off)
		b := k % 2
		if k >= 2 { // the buffer's previous copy must be done
			if err := c.d.check("cuEventSynchronize", c.d.cuEventSynchronize(uintptr(st.done[b]))); err != nil {
				return err
			}
		}
		copyParallel(st.buf[b], unsafe.Add(src, off), n)
		if err := c.d.check("cuMemcpyHtoDAsync", c.d.cuMemcpyHtoDAsync(dst+uintptr(off), st.buf[b], n, 0)); err != nil {
			return err
		}
		if err := c.Record(st.done[b]); err != nil {
			return err
		}
	}
	return c.Sync()
}

// copyParallel copies n bytes from src to dst on stagingCopiers goroutines
// (the ranges do not overlap).
func copyParallel(dst, src unsafe.Pointer, n uint64) {
	d := unsafe.Slice((*byte)(dst), n)
	s := unsafe.Slice((*byte)(src), n)
	const grain = 1 << 20
	parts := int((n + grain - 1) / grain)
	parallel.Ranges(parts, min(stagingCopiers, runtime.GOMAXPROCS(0)), func(lo, hi int) {
		a, b := uint64(lo)*grain, min(uint64(hi)*grain, n)
		copy(d[a:b], s[a:b])
	})
}
