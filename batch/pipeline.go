package batch

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Pipeline runs many items through three stages with bounded memory. Decode
// and Encode run on a pool of CPU workers, Label on a fixed number of
// labeling goroutines (one when a GPU context must have a single owner) fed
// by a queue. While one item is labeled, the workers decode the next ones and
// encode the previous ones, so reading, labeling and writing of different
// files overlap.
//
// Memory is bounded: at most MaxInFlight items exist between the start of
// their decoding and the end of their encoding, and, with MaxMemory set,
// the Cost of the items in flight stays within it (an item costlier than
// MaxMemory runs alone).
type Pipeline struct {
	// Workers is the number of decoding and encoding goroutines; 0 means
	// [runtime.NumCPU]().
	Workers int
	// Labelers is the number of labeling goroutines; 0 means 1.
	Labelers int
	// MaxInFlight bounds the items in flight; 0 means Workers+2.
	MaxInFlight int
	// MaxMemory bounds the summed Cost of the items in flight, in bytes;
	// 0 means no bound.
	MaxMemory int64
}

// Stages are the steps of one item, by its index. Decode may report that
// the item needs no work (skip); then Label and Encode are not called.
// Errors and panics end the item's run with an error, and the other items
// go on.
type Stages[T any] struct {
	// Decode reads item i (on a worker).
	Decode func(i int) (item T, skip bool, err error)
	// Label labels a decoded item (on a labeling goroutine).
	Label func(item T) error
	// Encode writes a labeled item (on a worker).
	Encode func(item T) error
	// Cost estimates the bytes item i holds while in flight; it is
	// called before Decode, and only when MaxMemory is set.
	Cost func(i int) int64
}

// Outcome is the end of one item's run.
type Outcome struct {
	Index   int
	Skipped bool
	Err     error   // nil when it succeeded or was skipped
	Seconds float64 // time spent in the item's stages, waits excluded
}

// Run runs items 0..n-1 through the pipeline p's stages st. It calls done
// once for each item that was started, from one goroutine at a time, as items
// finish. Items start in index order. When ctx is cancelled no further item
// starts; those in flight finish, and Run returns ctx's error after they
// have. Otherwise it returns nil once every item has finished.
func Run[T any](ctx context.Context, p Pipeline, n int, st Stages[T], done func(Outcome)) error {
	if st.Decode == nil || st.Label == nil || st.Encode == nil || done == nil {
		return errNoStages
	}
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	labelers := max(p.Labelers, 1)
	inFlight := p.MaxInFlight
	if inFlight <= 0 {
		inFlight = workers + 2
	}
	r := &run[T]{stages: st, done: done,
		toDecode: make(chan int),
		// Queues hold every item in flight, so no send on them blocks.
		toLabel:  make(chan *item[T], inFlight),
		toEncode: make(chan *item[T], inFlight),
		slots:    make(chan struct{}, inFlight),
		memory:   newBudget(p.MaxMemory),
	}
	var decoding sync.WaitGroup // items admitted and not yet past decoding
	var stopped error
	go func() { // the feeder admits items in order while slots and memory allow
		defer func() {
			close(r.toDecode)
			decoding.Wait()
			close(r.toLabel)
		}()
		for i := range n {
			var cost int64
			if p.MaxMemory > 0 && st.Cost != nil {
				cost = st.Cost(i)
			}
			select {
			case r.slots <- struct{}{}:
			case <-ctx.Done():
				stopped = ctx.Err()
				return
			}
			if !r.memory.acquire(ctx, cost) {
				<-r.slots
				stopped = ctx.Err()
				return
			}
			decoding.Add(1)
			r.costs.Store(i, cost)
			select {
			case r.toDecode <- i:
			case <-ctx.Done():
				decoding.Done()
				r.costs.Delete(i)
				r.memory.release(cost)
				<-r.slots
				stopped = ctx.Err()
				return
			}
		}
	}()
	var labeling, working sync.WaitGroup
	for range labelers {
		labeling.Go(r.labeler)
	}
	go func() {
		labeling.Wait()
		close(r.toEncode)
	}()
	for range workers {
		working.Go(func() { r.worker(&decoding) })
	}
	working.Wait()
	return stopped
}

// item is one item in flight.
type item[T any] struct {
	index   int
	value   T
	seconds float64
}

// run is the state of one Run.
type run[T any] struct {
	stages   Stages[T]
	done     func(Outcome)
	doneMu   sync.Mutex
	toDecode chan int
	toLabel  chan *item[T]
	toEncode chan *item[T]
	slots    chan struct{}
	memory   *budget
	costs    sync.Map // index -> cost, released when the item ends
}

// worker encodes labeled items, preferring them over decoding new ones so
// that memory is freed first, until both queues are closed.
func (r *run[T]) worker(decoding *sync.WaitGroup) {
	toDecode := r.toDecode
	for {
		select {
		case it, ok := <-r.toEncode:
			if !ok {
				return
			}
			r.encode(it)
			continue
		default:
		}
		select {
		case it, ok := <-r.toEncode:
			if !ok {
				return
			}
			r.encode(it)
		case i, ok := <-toDecode:
			if !ok {
				toDecode = nil // only encoding is left
				continue
			}
			r.decode(i)
			decoding.Done()
		}
	}
}

// decode runs the Decode stage and queues the item for labeling.
func (r *run[T]) decode(i int) {
	it := &item[T]{index: i}
	var skip bool
	err := timed(&it.seconds, func() (err error) {
		it.value, skip, err = r.stages.Decode(i)
		return err
	})
	switch {
	case err != nil:
		r.finish(it, false, err)
	case skip:
		r.finish(it, true, nil)
	default:
		r.toLabel <- it
	}
}

// labeler labels queued items until the queue is closed.
func (r *run[T]) labeler() {
	for it := range r.toLabel {
		if err := timed(&it.seconds, func() error { return r.stages.Label(it.value) }); err != nil {
			r.finish(it, false, err)
			continue
		}
		r.toEncode <- it
	}
}

// encode runs the Encode stage and ends the item.
func (r *run[T]) encode(it *item[T]) {
	err := timed(&it.seconds, func() error { return r.stages.Encode(it.value) })
	r.finish(it, false, err)
}

// finish frees the item's slot and memory and reports its outcome.
func (r *run[T]) finish(it *item[T], skipped bool, err error) {
	var zero T
	it.value = zero // let the item's buffers go before the next one starts
	if cost, ok := r.costs.LoadAndDelete(it.index); ok {
		r.memory.release(cost.(int64))
	}
	<-r.slots
	r.doneMu.Lock()
	defer r.doneMu.Unlock()
	r.done(Outcome{Index: it.index, Skipped: skipped, Err: err, Seconds: it.seconds})
}

// timed runs f, adds its duration to *seconds, and turns a panic in f into
// an error.
func timed(seconds *float64, f func() error) (err error) {
	start := time.Now()
	defer func() {
		*seconds += time.Since(start).Seconds()
		if p := recover(); p != nil {
			err = fmt.Errorf("batch: internal error: %v", p)
		}
	}()
	return f()
}

// budget is a byte budget shared by the items in flight.
type budget struct {
	limit int64
	mu    sync.Mutex
	used  int64
	freed chan struct{} // closed and replaced on every release
}

// newBudget returns a budget of limit bytes; 0 means unlimited.
func newBudget(limit int64) *budget {
	return &budget{limit: limit, freed: make(chan struct{})}
}

// acquire waits until cost fits the budget (or nothing else is held) and
// takes it; it returns false when ctx ends first.
func (b *budget) acquire(ctx context.Context, cost int64) bool {
	if b.limit <= 0 || cost <= 0 {
		return true
	}
	for {
		b.mu.Lock()
		if b.used == 0 || b.used+cost <= b.limit {
			b.used += cost
			b.mu.Unlock()
			return true
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return false
		}
	}
}

// release gives cost bytes back.
func (b *budget) release(cost int64) {
	if b.limit <= 0 || cost <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= cost
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}

// errNoStages is returned for a Pipeline run without stages.
var errNoStages = errors.New("batch: pipeline needs Decode, Label and Encode stages and a done function")
