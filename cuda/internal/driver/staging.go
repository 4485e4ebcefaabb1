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

// stagingPiece is the part of a chunk one goroutine copies at a time.
const stagingPiece = 1 << 20

// staging is a context's pinned host buffers and the events that mark
// each one's copy done.
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
// the chunks that have landed are copied out on every core.
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
	ok, err := c.stagedCopy(st, bytes, func(buf unsafe.Pointer, off, n uint64) error {
		return c.d.check("cuMemcpyDtoHAsync", c.d.cuMemcpyDtoHAsync(buf, src+uintptr(off), n, 0))
	}, func(buf unsafe.Pointer, off, n uint64) bool {
		return out(unsafe.Add(dst, off), buf, n)
	}).down()
	if err != nil {
		_ = c.Sync() // no DMA may still fill a buffer the next copy takes
		return err
	}
	if !ok {
		// The chunks started still land in the staging buffers.
		_ = c.Sync()
		return errPastTable
	}
	return nil
}

// stagedCopy returns the plan of a copy of bytes through st's buffers on
// every core: async starts the DMA of bytes off..off+n from or into buf on
// the default stream; host copies n bytes at offset off between buf and
// Go memory.
func (c *Context) stagedCopy(st *staging, bytes uint64, async func(buf unsafe.Pointer, off, n uint64) error, host func(buf unsafe.Pointer, off, n uint64) bool) staged {
	size := func(k int) uint64 { return min(stagingChunk, bytes-uint64(k)*stagingChunk) }
	return staged{
		chunks: int((bytes + stagingChunk - 1) / stagingChunk), slots: stagingSlots,
		workers: runtime.GOMAXPROCS(0), piece: stagingPiece, size: size,
		start: func(k int) error {
			b := k % stagingSlots
			if err := async(st.buf[b], uint64(k)*stagingChunk, size(k)); err != nil {
				return err
			}
			return c.Record(st.done[b])
		},
		wait: func(k int) error {
			return c.d.check("cuEventSynchronize", c.d.cuEventSynchronize(uintptr(st.done[k%stagingSlots])))
		},
		host: func(k int, lo, hi uint64) bool {
			return host(unsafe.Add(st.buf[k%stagingSlots], lo), uint64(k)*stagingChunk+lo, hi-lo)
		},
	}
}

// staged is a staged copy's plan: chunks chunks go through slots pinned
// buffers, chunk k through buffer k%slots. start(k) starts chunk k's copy
// on the DMA engine and wait(k) waits until it is done; host(k, lo, hi)
// copies bytes lo..hi of chunk k (size(k) bytes) between its buffer and
// Go memory on one of workers goroutines, a piece at a time. start and
// wait are called on the goroutine that runs the plan (the context's
// thread), in order of k.
//
// The workers go on to the next chunk that is ready as soon as they are
// done with a piece, with no barrier between chunks. A run stops at the
// first error of start or wait, which it returns, or at the first false of
// host, when ok is false. Either way it returns only after every host it
// began has returned.
type staged struct {
	chunks, slots, workers int
	piece                  uint64
	size                   func(k int) uint64
	start, wait            func(k int) error
	host                   func(k int, lo, hi uint64) bool
}

// hosts is the goroutines of a [staged] run: they take the pieces of the
// chunks handed to them, and report each chunk once it is all done.
type hosts struct {
	s    *staged
	work chan stagedPiece
	done chan int // chunks all done, a buffer each
	left []atomic.Int64
	bad  atomic.Bool
	wg   sync.WaitGroup
}

// stagedPiece is bytes lo..hi of chunk k.
type stagedPiece struct {
	k      int
	lo, hi uint64
}

// startHosts starts the goroutines of a run of s.
func (s *staged) startHosts() *hosts {
	perChunk := int((s.size(0) + s.piece - 1) / s.piece)
	h := &hosts{s: s, work: make(chan stagedPiece, s.slots*perChunk), done: make(chan int, s.slots),
		left: make([]atomic.Int64, s.slots)}
	for range max(1, min(s.workers, s.chunks*perChunk)) {
		h.wg.Go(func() {
			for p := range h.work {
				if !h.bad.Load() && !s.host(p.k, p.lo, p.hi) {
					h.bad.Store(true)
				}
				if h.left[p.k%s.slots].Add(-1) == 0 {
					h.done <- p.k
				}
			}
		})
	}
	return h
}

// hand gives chunk k's pieces to the goroutines. Its buffer's chunk before
// it must be all done: at most slots chunks are handed and not done, so
// neither channel ever fills.
func (h *hosts) hand(k int) {
	n := h.s.size(k)
	h.left[k%h.s.slots].Store(int64((n + h.s.piece - 1) / h.s.piece))
	for lo := uint64(0); lo < n; lo += h.s.piece {
		h.work <- stagedPiece{k, lo, min(lo+h.s.piece, n)}
	}
}

// doneSoFar calls f with the buffer of each chunk reported done since the
// last call, without waiting for more.
func (h *hosts) doneSoFar(f func(buffer int)) {
	for {
		select {
		case k := <-h.done:
			f(k % h.s.slots)
		default:
			return
		}
	}
}

// finish waits for the goroutines and reports whether every host call
// succeeded.
func (h *hosts) finish() bool {
	close(h.work)
	h.wg.Wait()
	return !h.bad.Load()
}

// down runs s as a download: chunk k is started once the chunk before it
// in its buffer is all copied out, and handed to the host goroutines once
// it has landed.
func (s staged) down() (ok bool, err error) {
	h := s.startHosts()
	busy := make([]bool, s.slots)
	next := 0 // the next chunk to start
	startFree := func() error {
		for ; next < s.chunks && !busy[next%s.slots]; next++ {
			if err := s.start(next); err != nil {
				return err
			}
			busy[next%s.slots] = true
		}
		return nil
	}
	err = startFree()
	for k := 0; k < s.chunks && err == nil && !h.bad.Load(); k++ {
		for next <= k && err == nil {
			busy[<-h.done%s.slots] = false
			err = startFree()
		}
		if err == nil {
			err = s.wait(k)
		}
		if err != nil {
			break
		}
		h.hand(k)
		h.doneSoFar(func(b int) { busy[b] = false })
		err = startFree()
	}
	return h.finish(), err
}

// up runs s as an upload: chunk k is handed to the host goroutines once the
// copy of the chunk before it in its buffer is done, and started once it
// is all copied in.
func (s staged) up() (ok bool, err error) {
	h := s.startHosts()
	filled := make([]bool, s.slots)
	next, handed := 0, 0 // the next chunk to start, and to hand
	startFilled := func() error {
		for ; next < handed && filled[next%s.slots] && !h.bad.Load(); next++ {
			if err := s.start(next); err != nil {
				return err
			}
			filled[next%s.slots] = false
		}
		return nil
	}
	for handed < s.chunks && err == nil && !h.bad.Load() {
		if before := handed - s.slots; before >= 0 {
			for next <= before && err == nil && !h.bad.Load() {
				filled[<-h.done%s.slots] = true
				err = startFilled()
			}
			if h.bad.Load() {
				break
			}
			if err == nil {
				err = s.wait(before)
			}
			if err != nil {
				break
			}
		}
		h.hand(handed)
		handed++
		h.doneSoFar(func(b int) { filled[b] = true })
		err = startFilled()
	}
	for next < handed && err == nil && !h.bad.Load() {
		filled[<-h.done%s.slots] = true
		err = startFilled()
	}
	return h.finish(), err
}

// UploadStaged copies Go memory to device memory through the pinned
// buffers.
//
// It copies bytes at src to dst: the chunks copied in on every core are on
// the DMA engine while later ones are copied in. Without
// staging buffers it copies from pageable memory. Call it inside
// [Context.Do].
func (c *Context) UploadStaged(dst uintptr, src unsafe.Pointer, bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	st := c.stagingBuffers()
	if st == nil || bytes <= stagingChunk/4 {
		return c.d.check("cuMemcpyHtoD", c.d.cuMemcpyHtoD(dst, src, bytes))
	}
	_, err := c.stagedCopy(st, bytes, func(buf unsafe.Pointer, off, n uint64) error {
		return c.d.check("cuMemcpyHtoDAsync", c.d.cuMemcpyHtoDAsync(dst+uintptr(off), buf, n, 0))
	}, func(buf unsafe.Pointer, off, n uint64) bool {
		copy(unsafe.Slice((*byte)(buf), n), unsafe.Slice((*byte)(unsafe.Add(src, off)), n))
		return true
	}).up()
	if err != nil {
		_ = c.Sync() // no DMA may still read a buffer the next copy fills
		return err
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
