package pdeflate

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestStreamsShareTheCores writes many streams at once: every one round
// trips, and no more blocks are filled and compressed at once than
// GOMAXPROCS, whatever each stream's Threads.
func TestStreamsShareTheCores(t *testing.T) {
	limit := cap(running)
	if limit != runtime.GOMAXPROCS(0) {
		t.Skipf("GOMAXPROCS changed since init: %d tokens, %d procs", limit, runtime.GOMAXPROCS(0))
	}
	data := testData(6<<20+123, 7)
	var now, most atomic.Int64
	var wg sync.WaitGroup
	streams := 3*limit + 1
	outs := make([]bytes.Buffer, streams)
	errs := make([]error, streams)
	for s := range streams {
		wg.Go(func() {
			fill := func(dst []byte, off int64) {
				n := now.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				copy(dst, data[off:])
				runtime.Gosched()
				now.Add(-1)
			}
			errs[s] = WriteFunc(&outs[s], Gzip, int64(len(data)), fill, Options{BlockSize: 256 << 10, Threads: limit})
		})
	}
	wg.Wait()
	for s := range streams {
		if errs[s] != nil {
			t.Fatal(errs[s])
		}
		back, err := decode(Gzip, outs[s].Bytes())
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("stream %d: %d bytes back, %v", s, len(back), err)
		}
	}
	if m := most.Load(); m > int64(limit) || m < 1 {
		t.Errorf("%d blocks filled at once, want 1 to %d", m, limit)
	}
}
