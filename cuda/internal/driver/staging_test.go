package driver

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeDMA is a DMA engine for [landing]: fetch queues a chunk's copy into
// its buffer, which one goroutine carries out in order after a short random
// delay, as a stream does; it records every rule of landing that is broken.
type fakeDMA struct {
	src     []byte
	chunk   uint64
	bufs    [][]byte
	owner   []atomic.Int64 // the chunk that last landed in a buffer
	reading []atomic.Int64 // outs running on a buffer
	queue   chan int
	landed  []chan struct{}
	mu      sync.Mutex
	broken  []string
	fetched int
	waited  int
	outs    atomic.Int64 // outs running
	seed    uint64
}

func newFakeDMA(src []byte, chunk uint64, slots int, seed uint64) *fakeDMA {
	chunks := int((uint64(len(src)) + chunk - 1) / chunk)
	f := &fakeDMA{src: src, chunk: chunk, bufs: make([][]byte, slots), owner: make([]atomic.Int64, slots),
		reading: make([]atomic.Int64, slots), queue: make(chan int, chunks), landed: make([]chan struct{}, chunks), seed: seed}
	for i := range f.bufs {
		f.bufs[i] = make([]byte, chunk)
		f.owner[i].Store(-1)
	}
	for k := range f.landed {
		f.landed[k] = make(chan struct{})
	}
	go f.engine()
	return f
}

func (f *fakeDMA) breaks(format string, args ...any) {
	f.mu.Lock()
	f.broken = append(f.broken, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}

func (f *fakeDMA) size(k int) uint64 { return min(f.chunk, uint64(len(f.src))-uint64(k)*f.chunk) }

// engine lands the queued chunks in order, each after a delay.
func (f *fakeDMA) engine() {
	r := rand.New(rand.NewPCG(f.seed, 1))
	for k := range f.queue {
		time.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
		b := k % len(f.bufs)
		if f.reading[b].Load() > 0 {
			f.breaks("chunk %d landed in buffer %d while it was read", k, b)
		}
		off := uint64(k) * f.chunk
		copy(f.bufs[b], f.src[off:off+f.size(k)])
		f.owner[b].Store(int64(k))
		close(f.landed[k])
	}
}

func (f *fakeDMA) fetch(k int) error {
	if k != f.fetched {
		f.breaks("fetch(%d) after %d fetches", k, f.fetched)
	}
	f.fetched++
	f.queue <- k
	return nil
}

func (f *fakeDMA) wait(k int) error {
	if k != f.waited {
		f.breaks("wait(%d) after %d waits", k, f.waited)
	}
	f.waited++
	<-f.landed[k]
	return nil
}

// out copies bytes lo..hi of chunk k from its buffer into dst.
func (f *fakeDMA) out(dst []byte) func(k int, lo, hi uint64) bool {
	return func(k int, lo, hi uint64) bool {
		f.outs.Add(1)
		defer f.outs.Add(-1)
		b := k % len(f.bufs)
		f.reading[b].Add(1)
		defer f.reading[b].Add(-1)
		if got := f.owner[b].Load(); got != int64(k) {
			f.breaks("out of chunk %d from buffer %d, which holds chunk %d", k, b, got)
		}
		copy(dst[uint64(k)*f.chunk+lo:], f.bufs[b][lo:hi])
		time.Sleep(time.Duration(rand.IntN(100)) * time.Microsecond)
		if got := f.owner[b].Load(); got != int64(k) {
			f.breaks("buffer %d took chunk %d while chunk %d was read", b, got, k)
		}
		return true
	}
}

func (f *fakeDMA) landing(slots, workers int, piece uint64, dst []byte) landing {
	return landing{chunks: len(f.landed), slots: slots, workers: workers, piece: piece, size: f.size,
		fetch: f.fetch, wait: f.wait, out: f.out(dst)}
}

// TestLandingCopiesEveryChunk: a staged download's chunks come out whole,
// in their places, and no buffer is fetched into while it is read, for
// any number of buffers and workers and a last chunk of any size.
func TestLandingCopiesEveryChunk(t *testing.T) {
	for i, c := range []struct {
		bytes, chunk, piece uint64
		slots, workers      int
	}{
		{1000, 4096, 256, 2, 4},    // one short chunk
		{4096, 4096, 4096, 3, 8},   // one chunk, one piece
		{40000, 4096, 1024, 3, 8},  // a short last chunk
		{40960, 4096, 1000, 2, 1},  // one worker, pieces not dividing the chunk
		{65536, 2048, 512, 1, 3},   // one buffer: chunk by chunk
		{300000, 8192, 512, 3, 16}, // many chunks, more workers than pieces of one
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			src := make([]byte, c.bytes)
			r := rand.New(rand.NewPCG(uint64(i), 2))
			for j := range src {
				src[j] = byte(r.Uint32())
			}
			f := newFakeDMA(src, c.chunk, c.slots, uint64(i))
			dst := make([]byte, c.bytes)
			ok, err := f.landing(c.slots, c.workers, c.piece, dst).run()
			if !ok || err != nil {
				t.Fatalf("run = %v, %v", ok, err)
			}
			if n := f.outs.Load(); n != 0 {
				t.Errorf("%d outs still running after run", n)
			}
			if f.fetched != len(f.landed) || f.waited != len(f.landed) {
				t.Errorf("%d fetches and %d waits of %d chunks", f.fetched, f.waited, len(f.landed))
			}
			for _, b := range f.broken {
				t.Error(b)
			}
			if !bytes.Equal(dst, src) {
				t.Error("the copy differs from the source")
			}
		})
	}
}

// TestLandingStops: an error of fetch or wait is returned, a false of out
// makes ok false, and run returns only once no out runs.
func TestLandingStops(t *testing.T) {
	errDMA := errors.New("dma failed")
	for _, c := range []struct {
		name   string
		failAt int // the chunk that fails
		fail   func(l *landing, f *fakeDMA, at int)
		wantOK bool
		want   error
	}{
		{"fetch", 6, func(l *landing, f *fakeDMA, at int) {
			l.fetch = func(k int) error {
				if k == at {
					return errDMA
				}
				return f.fetch(k)
			}
		}, true, errDMA},
		{"wait", 4, func(l *landing, f *fakeDMA, at int) {
			l.wait = func(k int) error {
				if k == at {
					return errDMA
				}
				return f.wait(k)
			}
		}, true, errDMA},
		{"out", 3, func(l *landing, f *fakeDMA, at int) {
			out := l.out
			l.out = func(k int, lo, hi uint64) bool {
				return out(k, lo, hi) && !(k == at && lo > 0)
			}
		}, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeDMA(make([]byte, 20*4096), 4096, 3, 7)
			var late atomic.Int64 // outs of chunks past the failure's window
			l := f.landing(3, 4, 1024, make([]byte, 20*4096))
			out := l.out
			l.out = func(k int, lo, hi uint64) bool {
				if k > c.failAt+3 {
					late.Add(1)
				}
				return out(k, lo, hi)
			}
			c.fail(&l, f, c.failAt)
			ok, err := l.run()
			if ok != c.wantOK || !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Errorf("run = %v, %v; want %v, %v", ok, err, c.wantOK, c.want)
			}
			if n := f.outs.Load(); n != 0 {
				t.Errorf("%d outs still running after run", n)
			}
			if n := late.Load(); n != 0 {
				t.Errorf("%d outs of chunks past %d", n, c.failAt+3)
			}
			for _, b := range f.broken {
				t.Error(b)
			}
		})
	}
}

// TestMapValues: mapValues maps through the table and stops at a value
// past it.
func TestMapValues(t *testing.T) {
	table := []uint32{0, 7, 9}
	dst := make([]uint32, 4)
	if !mapValues(dst, []uint32{2, 0, 1, 2}, table) || fmt.Sprint(dst) != "[9 0 7 9]" {
		t.Errorf("mapValues gave %v", dst)
	}
	if mapValues(dst, []uint32{1, 3, 0, 0}, table) {
		t.Error("a value past the table was taken")
	}
	src := []uint32{1, 2, 0}
	if !mapValues(src, src, table) || fmt.Sprint(src) != "[7 9 0]" {
		t.Errorf("mapValues in place gave %v", src)
	}
}
