package driver

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
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
	return c.downloadStaged(dst, src, bytes, func(dst, src unsafe.Pointer, n uint64) bool {
		copyParallel(dst, src, n)
		return true
	})
}

// DownloadStagedMapped copies len(dst) uint32 values from device memory
// into dst through table, as [Context.DownloadStaged] copies: dst[i] is
// table[v] for the i-th value v at src. A value past the table is an error
// (dst's contents are then unspecified). Call it inside [Context.Do].
func (c *Context) DownloadStagedMapped(dst []uint32, src uintptr, table []uint32) error {
	if len(dst) == 0 {
		return nil
	}
	if len(table) == 0 {
		return errors.New("cuda: an empty table")
	}
	err := c.downloadStaged(unsafe.Pointer(&dst[0]), src, 4*uint64(len(dst)), func(dst, src unsafe.Pointer, n uint64) bool {
		return mapParallel(dst, src, n, table)
	})
	runtime.KeepAlive(dst)
	return err
}

// errPastTable is DownloadStagedMapped's error for a value past its table.
var errPastTable = errors.New("cuda: a downloaded label past its table")

// downloadStaged is DownloadStaged with out copying each chunk from the
// pinned buffer (or, for a copy that goes from pageable memory, dst itself)
// into dst; out reports false on a value it cannot take.
func (c *Context) downloadStaged(dst unsafe.Pointer, src uintptr, bytes uint64, out func(dst, src unsafe.Pointer, n uint64) bool) error {
	if bytes == 0 {
		return nil
	}
	st := c.stagingBuffers()
	if st == nil || bytes <= stagingChunk/4 {
		if err := c.d.check("cuMemcpyDtoH", c.d.cuMemcpyDtoH(dst, src, bytes)); err != nil {
			return err
		}
		if !out(dst, dst, bytes) {
			return errPastTable
		}
		return nil
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
		if !out(unsafe.Add(dst, off), st.buf[b], n) {
			// The chunks issued still land in the staging buffers.
			_ = c.Sync()
			return errPastTable
		}
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

// UploadSlice copies src to device memory at dst through the pinned
// buffers, as [Context.UploadStaged] copies. Call it inside [Context.Do].
func UploadSlice[T any](c *Context, dst uintptr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	err := c.UploadStaged(dst, unsafe.Pointer(&src[0]), uint64(len(src))*uint64(unsafe.Sizeof(src[0])))
	runtime.KeepAlive(src)
	return err
}

// DownloadSlice fills dst from device memory at src through the pinned
// buffers, as [Context.DownloadStaged] copies. Call it inside
// [Context.Do].
func DownloadSlice[T any](c *Context, dst []T, src uintptr) error {
	if len(dst) == 0 {
		return nil
	}
	err := c.DownloadStaged(unsafe.Pointer(&dst[0]), src, uint64(len(dst))*uint64(unsafe.Sizeof(dst[0])))
	runtime.KeepAlive(dst)
	return err
}

// mapParallel writes table[v] to dst for each uint32 v of the n bytes at
// src (n a multiple of 4; dst and src may be the same) on every core, and
// reports whether every v was in the table. A load from the table for each
// value makes the mapping slower than a copy and than the DMA engine that
// fills the next chunk meanwhile, so it takes all the host's cores.
func mapParallel(dst, src unsafe.Pointer, n uint64, table []uint32) bool {
	d := unsafe.Slice((*uint32)(dst), n/4)
	s := unsafe.Slice((*uint32)(src), n/4)
	const grain = 1 << 18
	parts := (len(d) + grain - 1) / grain
	var bad atomic.Bool
	parallel.Ranges(parts, runtime.GOMAXPROCS(0), func(lo, hi int) {
		a, b := lo*grain, min(hi*grain, len(d))
		top := uint32(len(table) - 1)
		dd, ss := d[a:b], s[a:b]
		for i, v := range ss {
			if v > top {
				bad.Store(true)
				return
			}
			dd[i] = table[v]
		}
	})
	return !bad.Load()
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

// Int32s returns values narrowed to int32s, such as CSR offsets for
// kernels that take 32-bit ones (the caller checked that they fit),
// copied on all cores.
func Int32s(offsets []int64) []int32 {
	out := make([]int32, len(offsets))
	workers := min(runtime.NumCPU(), max(1, len(offsets)>>18))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			lo, hi := w*len(offsets)/workers, (w+1)*len(offsets)/workers
			for i, o := range offsets[lo:hi] {
				out[lo+i] = int32(o)
			}
		})
	}
	wg.Wait()
	return out
}
