package driver

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cclabel/cclabel/internal/parallel"
)

// stagingChunk is the size of each of a context's pinned host buffers.
// Copies between the device and Go memory go through them in chunks: the
// DMA engine fills or empties some while host threads empty or fill
// another.
const stagingChunk = 32 << 20

// stagingSlots is how many pinned buffers a context has: one more than a
// pair, so that the DMA engine always has a chunk queued while the host
// empties two.
const stagingSlots = 3

// stagingCopiers is how many goroutines copy one chunk between a pinned
// buffer and Go memory: enough to take the fresh Go pages' faults in
// parallel and to reach the memory bandwidth.
const stagingCopiers = 8

// stagingPiece is the part of a chunk one goroutine copies out at a time.
const stagingPiece = 1 << 20

// staging is a context's pair of pinned host buffers and the events that
// mark each one's copy done.
type staging struct {
	buf  [stagingSlots]unsafe.Pointer
	done [stagingSlots]Event
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
// It copies bytes at src to dst: later chunks are on the DMA engine while
// the chunks that have landed are copied out on every core ([landed]).
// Host memory is never page-locked in place, so the cost per byte does
// not grow with the size.
// A copy of a quarter chunk or less, or one without staging buffers, goes
// from pageable memory. Call it inside [Context.Do].
func (c *Context) DownloadStaged(dst unsafe.Pointer, src uintptr, bytes uint64) error {
	return c.downloadStaged(dst, src, bytes, func(dst, src unsafe.Pointer, n uint64) bool {
		if dst != src {
			copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
		}
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
		return mapValues(unsafe.Slice((*uint32)(dst), n/4), unsafe.Slice((*uint32)(src), n/4), table)
	})
	runtime.KeepAlive(dst)
	return err
}

// errPastTable is DownloadStagedMapped's error for a value past its table.
var errPastTable = errors.New("cuda: a downloaded label past its table")

// downloadStaged is DownloadStaged with out copying a piece of a chunk
// from the pinned buffer into dst on one goroutine (or, for a copy that
// goes from pageable memory, all of dst in place on every core); out
// reports false on a value it cannot take.
func (c *Context) downloadStaged(dst unsafe.Pointer, src uintptr, bytes uint64, out func(dst, src unsafe.Pointer, n uint64) bool) error {
	if bytes == 0 {
		return nil
	}
	st := c.stagingBuffers()
	if st == nil || bytes <= stagingChunk/4 {
		if err := c.d.check("cuMemcpyDtoH", c.d.cuMemcpyDtoH(dst, src, bytes)); err != nil {
			return err
		}
		var bad atomic.Bool
		pieces := int((bytes + stagingPiece - 1) / stagingPiece)
		parallel.Ranges(pieces, runtime.GOMAXPROCS(0), func(lo, hi int) {
			a, b := uint64(lo)*stagingPiece, min(uint64(hi)*stagingPiece, bytes)
			if !out(unsafe.Add(dst, a), unsafe.Add(dst, a), b-a) {
				bad.Store(true)
			}
		})
		if bad.Load() {
			return errPastTable
		}
		return nil
	}
	size := func(k int) uint64 { return min(stagingChunk, bytes-uint64(k)*stagingChunk) }
	ok, err := landing{
		chunks: int((bytes + stagingChunk - 1) / stagingChunk), slots: stagingSlots,
		workers: runtime.GOMAXPROCS(0), piece: stagingPiece, size: size,
		fetch: func(k int) error {
			b := k % stagingSlots
			if err := c.d.check("cuMemcpyDtoHAsync", c.d.cuMemcpyDtoHAsync(st.buf[b], src+uintptr(k)*stagingChunk, size(k), 0)); err != nil {
				return err
			}
			return c.Record(st.done[b])
		},
		wait: func(k int) error {
			return c.d.check("cuEventSynchronize", c.d.cuEventSynchronize(uintptr(st.done[k%stagingSlots])))
		},
		out: func(k int, lo, hi uint64) bool {
			return out(unsafe.Add(dst, uint64(k)*stagingChunk+lo), unsafe.Add(st.buf[k%stagingSlots], lo), hi-lo)
		},
	}.run()
	if err != nil {
		return err
	}
	if !ok {
		// The chunks fetched still land in the staging buffers.
		_ = c.Sync()
		return errPastTable
	}
	return nil
}

// landing is a staged download's plan: chunks chunks go through slots
// buffers. fetch(k) starts chunk k's copy into buffer k%slots, once the
// chunk before it there is out, and wait(k) waits until it has landed.
// Then out takes bytes lo..hi of chunk k (size(k) bytes) on one of workers
// goroutines, a piece at a time. fetch and wait are called on the
// goroutine of [landing.run] (the context's thread), in order of k.
type landing struct {
	chunks, slots, workers int
	piece                  uint64
	size                   func(k int) uint64
	fetch, wait            func(k int) error
	out                    func(k int, lo, hi uint64) bool
}

// run carries out the download. The workers go on to the next chunk that
// has landed as soon as they are done with a piece, with no barrier
// between chunks.
//
// It stops at the first error of fetch or wait, which it returns, or at
// the first false of out, when ok is false. Either way it returns only
// after every out it began has returned.
func (l landing) run() (ok bool, err error) {
	type piece struct {
		k      int
		lo, hi uint64
	}
	chunks, slots := l.chunks, l.slots
	perChunk := int((l.size(0) + l.piece - 1) / l.piece)
	left := make([]atomic.Int64, slots)      // pieces of a buffer's chunk not yet out
	work := make(chan piece, slots*perChunk) // never full: slots chunks at most
	freed := make(chan int, slots)           // chunks all out, a buffer each
	var bad atomic.Bool
	var wg sync.WaitGroup
	for range max(1, min(l.workers, chunks*perChunk)) {
		wg.Go(func() {
			for p := range work {
				if !bad.Load() && !l.out(p.k, p.lo, p.hi) {
					bad.Store(true)
				}
				if left[p.k%slots].Add(-1) == 0 {
					freed <- p.k
				}
			}
		})
	}
	busy := make([]bool, slots)
	next := 0 // the next chunk to fetch
	fetchFree := func() error {
		for ; next < chunks && !busy[next%slots]; next++ {
			if err := l.fetch(next); err != nil {
				return err
			}
			busy[next%slots] = true
		}
		return nil
	}
	err = fetchFree()
	for k := 0; k < chunks && err == nil && !bad.Load(); k++ {
		for next <= k && err == nil {
			busy[<-freed%slots] = false
			err = fetchFree()
		}
		if err == nil {
			err = l.wait(k)
		}
		if err != nil {
			break
		}
		n := l.size(k)
		left[k%slots].Store(int64((n + l.piece - 1) / l.piece))
		for lo := uint64(0); lo < n; lo += l.piece {
			work <- piece{k, lo, min(lo+l.piece, n)}
		}
	drain:
		for {
			select {
			case j := <-freed:
				busy[j%slots] = false
			default:
				break drain
			}
		}
		err = fetchFree()
	}
	close(work)
	wg.Wait()
	return !bad.Load(), err
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
		b := k % stagingSlots
		if k >= stagingSlots { // the buffer's previous copy must be done
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

// mapValues writes table[v] to dst for each v of src (dst and src of one
// length, and may be the same) and reports whether every v was in the
// table; at the first that was not it stops.
func mapValues(dst, src, table []uint32) bool {
	top := uint32(len(table) - 1)
	dst = dst[:len(src)]
	for i, v := range src {
		if v > top {
			return false
		}
		dst[i] = table[v]
	}
	return true
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
