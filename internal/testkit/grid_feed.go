package testkit

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// Feed releases a grid's rows in order from its own goroutine. It plays a
// decompressing reader for the streamed labelers (grid.Stream): Wait is
// the stream's wait, and the sources PoisonMask and PoisonRuns
// serve garbage for rows not yet released and count those reads.
type Feed struct {
	rows, step, failAt int
	mu                 sync.Mutex
	cond               *sync.Cond
	ready              int  // rows released
	failed, ended      bool // the feed failed; it ended (either way)
	early              atomic.Int64
	done               chan struct{}
}

// ErrFeed is the error of a feed that fails.
var ErrFeed = errors.New("testkit: the feed failed")

// NewFeed starts releasing rows rows, step at a time (at least 1); when
// failAt is in [0, rows), the feed fails once failAt rows are released.
// Call Stop before the test ends.
func NewFeed(rows, step, failAt int) *Feed {
	f := &Feed{rows: rows, step: max(1, step), failAt: failAt, done: make(chan struct{})}
	f.cond = sync.NewCond(&f.mu)
	go f.release()
	return f
}

// release is the feeding goroutine.
func (f *Feed) release() {
	defer close(f.done)
	for {
		f.mu.Lock()
		limit := f.rows
		if f.failAt >= 0 && f.failAt < f.rows {
			limit = f.failAt
		}
		if f.ready >= limit {
			f.ended, f.failed = true, limit < f.rows
		} else {
			f.ready = min(limit, f.ready+f.step)
		}
		ended := f.ended
		f.cond.Broadcast()
		f.mu.Unlock()
		if ended {
			return
		}
		runtime.Gosched()
	}
}

// Wait blocks until rows [0, end) are released, or fails with ErrFeed
// once the feed has failed short of them.
func (f *Feed) Wait(end int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.ready < end && !f.ended {
		f.cond.Wait()
	}
	if f.ready < end {
		return ErrFeed
	}
	return nil
}

// released reports whether row has been released, counting a read of one
// that has not.
func (f *Feed) released(row int) bool {
	f.mu.Lock()
	ok := row < f.ready
	f.mu.Unlock()
	if !ok {
		f.early.Add(1)
	}
	return ok
}

// Early returns the number of rows read before their release.
func (f *Feed) Early() int { return int(f.early.Load()) }

// Stop waits for the feeding goroutine to end.
func (f *Feed) Stop() { <-f.done }

// PoisonMask serves the masks of Keys (nonzero is foreground) for rows the
// feed has released, and every pixel set for the others.
type PoisonMask struct {
	Keys SliceKeys
	Feed *Feed
}

// Mask serves a row.
func (p PoisonMask) Mask(row int, dst []uint64) {
	clear(dst)
	if !p.Feed.released(row) {
		for x := range p.Keys.Width {
			dst[x/64] |= 1 << (x % 64)
		}
		return
	}
	for x, k := range p.Keys.Values[row*p.Keys.Width : (row+1)*p.Keys.Width] {
		if k != 0 {
			dst[x/64] |= 1 << (x % 64)
		}
	}
}

// PoisonRuns serves the runs of Keys for rows the feed has released, and
// one run of a key found nowhere else over the whole row for the others.
type PoisonRuns struct {
	Keys SliceKeys
	Feed *Feed
}

// AppendRuns serves a row.
func (p PoisonRuns) AppendRuns(row int, dst []grid.KeyRun[uint32]) []grid.KeyRun[uint32] {
	if !p.Feed.released(row) {
		return append(dst, grid.KeyRun[uint32]{Start: 0, End: int32(p.Keys.Width), Key: 1<<31 + 7})
	}
	return p.Keys.AppendRuns(row, dst)
}
