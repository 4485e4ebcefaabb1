package driver

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeDMA is a DMA engine for [staged]: start queues a chunk's copy, which
// one goroutine carries out in order after a short random delay, as a
// stream does: into the chunk's buffer from src for a download, from the
// buffer into dst for an upload. It records every rule of staged that is
// broken.
type fakeDMA struct {
	up       bool
	src, dst []byte
	chunk    uint64
	bufs     [][]byte
	owner    []atomic.Int64 // download: the chunk that last landed in a buffer
	reading  []atomic.Int64 // host calls running on a buffer
	copying  []atomic.Bool  // the engine is on a buffer
	in       []atomic.Int64 // upload: bytes of a chunk copied in
	queue    chan int
	copied   []chan struct{}
	mu       sync.Mutex
	broken   []string
	started  int
	waited   int
	hostRuns atomic.Int64
	seed     uint64
}

func newFakeDMA(up bool, src []byte, chunk uint64, slots int, seed uint64) *fakeDMA {
	chunks := int((uint64(len(src)) + chunk - 1) / chunk)
	f := &fakeDMA{up: up, src: src, dst: make([]byte, len(src)), chunk: chunk, bufs: make([][]byte, slots),
		owner: make([]atomic.Int64, slots), reading: make([]atomic.Int64, slots), copying: make([]atomic.Bool, slots),
		in: make([]atomic.Int64, chunks), queue: make(chan int, chunks), copied: make([]chan struct{}, chunks), seed: seed}
	for i := range f.bufs {
		f.bufs[i] = make([]byte, chunk)
		f.owner[i].Store(-1)
	}
	for k := range f.copied {
		f.copied[k] = make(chan struct{})
	}
	go f.engine()
	return f
}

func (f *fakeDMA) breaks(format string, args ...any) {
	f.mu.Lock()
	f.broken = append(f.broken, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}

// rules is what was broken so far.
func (f *fakeDMA) rules() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.broken...)
}

func (f *fakeDMA) size(k int) uint64 { return min(f.chunk, uint64(len(f.src))-uint64(k)*f.chunk) }

// engine carries out the queued copies in order, each after a delay.
func (f *fakeDMA) engine() {
	r := rand.New(rand.NewPCG(f.seed, 1))
	for k := range f.queue {
		time.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
		b, off, n := k%len(f.bufs), uint64(k)*f.chunk, f.size(k)
		f.copying[b].Store(true)
		if f.reading[b].Load() > 0 {
			f.breaks("chunk %d copied through buffer %d while the host was on it", k, b)
		}
		if f.up {
			if got := f.in[k].Load(); got != int64(n) {
				f.breaks("chunk %d started with %d of its %d bytes copied in", k, got, n)
			}
			copy(f.dst[off:off+n], f.bufs[b])
		} else {
			copy(f.bufs[b], f.src[off:off+n])
			f.owner[b].Store(int64(k))
		}
		f.copying[b].Store(false)
		close(f.copied[k])
	}
}

func (f *fakeDMA) start(k int) error {
	if k != f.started {
		f.breaks("start(%d) after %d starts", k, f.started)
	}
	f.started++
	f.queue <- k
	return nil
}

func (f *fakeDMA) wait(k int) error {
	if k != f.waited {
		f.breaks("wait(%d) after %d waits", k, f.waited)
	}
	f.waited++
	<-f.copied[k]
	return nil
}

// host copies bytes lo..hi of chunk k out of its buffer into dst, or in
// from src.
func (f *fakeDMA) host(k int, lo, hi uint64) bool {
	f.hostRuns.Add(1)
	defer f.hostRuns.Add(-1)
	b, off := k%len(f.bufs), uint64(k)*f.chunk
	f.reading[b].Add(1)
	defer f.reading[b].Add(-1)
	if f.copying[b].Load() {
		f.breaks("host on chunk %d while the engine was on buffer %d", k, b)
	}
	if f.up {
		copy(f.bufs[b][lo:hi], f.src[off+lo:])
	} else {
		if got := f.owner[b].Load(); got != int64(k) {
			f.breaks("chunk %d copied out of buffer %d, which holds chunk %d", k, b, got)
		}
		copy(f.dst[off+lo:], f.bufs[b][lo:hi])
	}
	time.Sleep(time.Duration(rand.IntN(100)) * time.Microsecond)
	if f.copying[b].Load() {
		f.breaks("the engine took buffer %d while the host was on chunk %d", b, k)
	}
	if f.up {
		f.in[k].Add(int64(hi - lo))
	}
	return true
}

func (f *fakeDMA) plan(slots, workers int, piece uint64) staged {
	return staged{chunks: len(f.copied), slots: slots, workers: workers, piece: piece, size: f.size,
		start: f.start, wait: f.wait, host: f.host}
}

func (f *fakeDMA) run(s staged) (bool, error) {
	if f.up {
		return s.up()
	}
	return s.down()
}

// TestStagedCopiesEveryChunk: a staged download's or upload's chunks come
// through whole, in their places; no buffer is copied into or out of by the
// engine while the host is on it; and an upload starts a chunk only once
// it is all copied in: for any number of buffers and workers and a last
// chunk of any size.
func TestStagedCopiesEveryChunk(t *testing.T) {
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
		for _, up := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/up=%v", i, up), func(t *testing.T) {
				src := make([]byte, c.bytes)
				r := rand.New(rand.NewPCG(uint64(i), 2))
				for j := range src {
					src[j] = byte(r.Uint32())
				}
				f := newFakeDMA(up, src, c.chunk, c.slots, uint64(i))
				ok, err := f.run(f.plan(c.slots, c.workers, c.piece))
				if !ok || err != nil {
					t.Fatalf("run = %v, %v", ok, err)
				}
				if n := f.hostRuns.Load(); n != 0 {
					t.Errorf("%d host calls still running after run", n)
				}
				if f.started != len(f.copied) || (!up && f.waited != len(f.copied)) {
					t.Errorf("%d starts and %d waits of %d chunks", f.started, f.waited, len(f.copied))
				}
				if up {
					for k := range f.copied {
						<-f.copied[k] // the caller syncs the stream
					}
				}
				for _, b := range f.rules() {
					t.Error(b)
				}
				if !bytes.Equal(f.dst, src) {
					t.Error("the copy differs from the source")
				}
			})
		}
	}
}

// TestStagedStops: an error of start or wait is returned, a false of host
// makes ok false, and a run returns only once no host call runs.
func TestStagedStops(t *testing.T) {
	for _, c := range []struct {
		name   string
		up     bool
		failAt int // the chunk that fails
		fail   func(s *staged, f *fakeDMA, at int)
		wantOK bool
		want   error
	}{
		{"down/start", false, 6, failStart, true, errDMA},
		{"down/wait", false, 4, failWait, true, errDMA},
		{"down/host", false, 3, failHost, false, nil},
		{"up/start", true, 6, failStart, true, errDMA},
		{"up/wait", true, 4, failWait, true, errDMA},
		{"up/host", true, 3, failHost, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeDMA(c.up, make([]byte, 20*4096), 4096, 3, 7)
			var late atomic.Int64 // host calls on chunks past the failure's window
			s := f.plan(3, 4, 1024)
			s.host = func(k int, lo, hi uint64) bool {
				if k > c.failAt+3 {
					late.Add(1)
				}
				return f.host(k, lo, hi)
			}
			c.fail(&s, f, c.failAt)
			ok, err := f.run(s)
			if ok != c.wantOK || !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Errorf("run = %v, %v; want %v, %v", ok, err, c.wantOK, c.want)
			}
			if n := f.hostRuns.Load(); n != 0 {
				t.Errorf("%d host calls still running after run", n)
			}
			if n := late.Load(); n != 0 {
				t.Errorf("%d host calls on chunks past %d", n, c.failAt+3)
			}
			for _, b := range f.rules() {
				t.Error(b)
			}
		})
	}
}

var errDMA = errors.New("dma failed")

func failStart(s *staged, f *fakeDMA, at int) {
	s.start = func(k int) error {
		if k == at {
			return errDMA
		}
		return f.start(k)
	}
}

func failWait(s *staged, f *fakeDMA, at int) {
	s.wait = func(k int) error {
		if k == at {
			return errDMA
		}
		return f.wait(k)
	}
}

func failHost(s *staged, _ *fakeDMA, at int) {
	host := s.host
	s.host = func(k int, lo, hi uint64) bool {
		return host(k, lo, hi) && !(k == at && lo > 0)
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

// BenchmarkStagedDown runs the host side of a staged download of labels
// mapped through a table, the DMA engine left out: chunks that have
// landed at once, copied out into memory already faulted in, as
// [Context.DownloadStagedMapped] does. CCLABEL_BENCH_STAGED_MB sets the
// size (default 256).
func BenchmarkStagedDown(b *testing.B) {
	mb, err := strconv.Atoi(cmp.Or(os.Getenv("CCLABEL_BENCH_STAGED_MB"), "256"))
	if err != nil {
		b.Fatal(err)
	}
	total := uint64(mb) << 20
	dst := make([]uint32, total/4)
	for i := range dst {
		dst[i] = 1 // faulted in
	}
	table := make([]uint32, 1<<17)
	for i := range table {
		table[i] = uint32(i)
	}
	bufs := make([][]uint32, stagingSlots)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range bufs {
		bufs[i] = make([]uint32, stagingChunk/4)
		for j := range bufs[i] {
			if r.IntN(10) < 3 {
				bufs[i][j] = uint32(r.IntN(len(table)))
			}
		}
	}
	size := func(k int) uint64 { return min(stagingChunk, total-uint64(k)*stagingChunk) }
	s := staged{chunks: int((total + stagingChunk - 1) / stagingChunk), slots: stagingSlots,
		workers: runtime.GOMAXPROCS(0), piece: stagingPiece, size: size,
		start: func(int) error { return nil }, wait: func(int) error { return nil },
		host: func(k int, lo, hi uint64) bool {
			off := (uint64(k)*stagingChunk + lo) / 4
			return mapValues(dst[off:off+(hi-lo)/4], bufs[k%stagingSlots][lo/4:hi/4], table)
		}}
	b.SetBytes(int64(total))
	for b.Loop() {
		if ok, err := s.down(); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

// TestStagedUploadStopsAtHost: once a host call of an upload fails, no
// chunk that is not all copied in is started.
func TestStagedUploadStopsAtHost(t *testing.T) {
	f := newFakeDMA(true, make([]byte, 4*4096), 4096, 1, 1)
	s := f.plan(1, 1, 1024)
	s.host = func(k int, lo, hi uint64) bool {
		ok := f.host(k, lo, hi)
		if k == 0 && lo == 0 {
			time.Sleep(20 * time.Millisecond) // up waits for chunk 0 meanwhile
			return false
		}
		return ok
	}
	if ok, err := s.up(); ok || err != nil {
		t.Fatalf("up = %v, %v; want false, nil", ok, err)
	}
	time.Sleep(10 * time.Millisecond) // the engine runs what was started
	if f.started != 0 {
		t.Errorf("%d chunks started", f.started)
	}
	for _, b := range f.rules() {
		t.Error(b)
	}
}
