package band

import (
	"sync"
	"sync/atomic"

	"github.com/cclabel/cclabel/internal/parallel"
)

// RunStreamed labels the bands of a grid while its rows arrive. It is
// [RunLabelerWith] for rows that become ready in order, as a file is
// decompressed: wait(end) blocks until rows [0, end) may be read and fails
// when they never will be.
//
// The bands (best more than threads, so that the first ones are linked long
// before the last rows arrive) are linked in row order, each once its rows
// are ready: by threads-1 goroutines (at least one) while rows arrive,
// leaving a core to whatever produces them, and by all threads once the
// last row is ready. A border is merged as soon as both its bands are
// linked. The second pass runs once every band is linked, on threads
// goroutines. The labels are RunLabeler's on the same bands.
//
// A failed wait stops the linking; RunStreamed returns its error once every
// goroutine it started has ended, and the labels are then meaningless.
//
// progress, when not nil, is told after each band of either pass how many
// of the 2*len(bands) are done, from the goroutine that did it: calls may
// come at once and out of order.
func RunStreamed(l Labeler, bands []Band, labels []uint32, width, threads int, wait func(end int) error, linked func(), progress func(done, total int)) (int, error) {
	threads = max(1, threads)
	var passed atomic.Int64 // bands done in either pass
	step := func() {
		if progress != nil {
			progress(int(passed.Add(1)), 2*len(bands))
		}
	}
	s := &streamLinks{l: l, bands: bands, done: make([]bool, len(bands)), border: 1}
	var next atomic.Int64 // the next band to link
	var failed atomic.Bool
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for t := range threads {
		wg.Go(func() {
			if t > 0 && t == threads-1 {
				// The last goroutine joins once every row is ready,
				// waiting band by band so that a failure elsewhere
				// (a wait's error) ends it early.
				for b := 0; b < len(bands) && !failed.Load(); b++ {
					if errs[t] = wait(bands[b].End); errs[t] != nil {
						failed.Store(true)
						return
					}
				}
			}
			for !failed.Load() {
				b := int(next.Add(1) - 1)
				if b >= len(bands) {
					return
				}
				if errs[t] = wait(bands[b].End); errs[t] != nil {
					failed.Store(true)
					return
				}
				l.LinkBand(&bands[b])
				s.linked(b)
				step()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	linked()
	cross := NewCrossLabels(labels, bands)
	n := Number(bands)
	cross.rankRoots(labels, bands)
	each(len(bands), threads, func(b int) {
		l.LabelBand(&bands[b], cross)
		step()
	})
	each(len(bands), threads, func(b int) { cross.FinishBand(labels, width, &bands[b]) })
	return int(n - 1), nil
}

// each runs body on every index of [0, n), handed out one at a time to
// threads goroutines.
func each(n, threads int, body func(i int)) {
	var next atomic.Int64
	parallel.Ranges(threads, threads, func(int, int) {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			body(i)
		}
	})
}

// streamLinks merges the borders of a streamed run in order as the bands
// on both sides are linked.
type streamLinks struct {
	l     Labeler
	bands []Band
	mu    sync.Mutex
	done  []bool // bands linked
	// border is the next border to merge: between bands border-1 and
	// border.
	border int
}

// linked records that band b is linked and merges every border that both
// of its bands are linked for. The merges run one at a time, in order;
// they touch only linked bands, so they may run beside the linking of
// later ones.
func (s *streamLinks) linked(b int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done[b] = true
	for s.border < len(s.bands) && s.done[s.border-1] && s.done[s.border] {
		s.l.MergeBorder(s.bands, s.border)
		s.border++
	}
}
