package gridcc

import (
	"errors"
	"fmt"
	"sync"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
)

// LabelStreamed labels a raster while its samples arrive in memory order.
// They arrive as a file is decompressed into r.Data: wait(n) blocks until the
// first n samples are in place, and fails when they never will be (the
// labeling then stops with its error); nil means they all are. Bands of
// rows are linked as their samples arrive, on opts.Threads-1 goroutines
// (at least one) while the rest is read, and labeled once every sample is
// in place ([grid.Stream]); bands is their number (0:
// [grid.StreamBandPixels] voxels each). The labels are [Label]'s, bit for
// bit; only dst must have r.Len() entries.
//
// Under the multilabel rule the raster is labeled as a binary mask, as
// Label does when it holds one foreground value, while the samples that
// have arrived hold one; if a second value arrives, it is labeled again
// from its start as keys.
func LabelStreamed(r *imagegraph.Raster, rule imagegraph.Rule, opts Options, dst []uint32, bands int, wait func(samples int) error) (*imagegraph.Labels, error) {
	conn, err := checkLabeling(r, rule, opts)
	if err != nil {
		return nil, err
	}
	if len(dst) != r.Len() {
		return nil, fmt.Errorf("imagegraph: %d labels for %d voxels", len(dst), r.Len())
	}
	src := newSource(r, rule)
	shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
	s := grid.Stream{Threads: opts.Threads, Bands: bands, Progress: opts.Progress}
	if wait != nil {
		s.Wait = func(end int) error { return wait(end * r.Width) }
	}
	var count int
	if rule.Mode == imagegraph.Multilabel {
		scan := src.scan()
		single := s
		single.Wait = func(end int) error {
			if err := s.WaitFunc()(end); err != nil {
				return err
			}
			if !scan.upTo(end * r.Width) {
				return errSecondValue
			}
			return nil
		}
		binary := newSource(r, imagegraph.Rule{Mode: imagegraph.Binary})
		count, err = grid.LabelBinaryStreamed(shape, conn, binary, dst, single)
		if !errors.Is(err, errSecondValue) {
			return streamedLabels(r, dst, count, err)
		}
	}
	if rule.Mode != imagegraph.Multilabel {
		count, err = grid.LabelBinaryStreamed(shape, conn, src, dst, s)
	} else if narrow, wide := src.runs(); wide != nil {
		count, err = runs.LabelRunsStreamed(shape, conn, wide, dst, s)
	} else {
		count, err = runs.LabelRunsStreamed(shape, conn, narrow, dst, s)
	}
	return streamedLabels(r, dst, count, err)
}

// streamedLabels returns the outcome of a streamed labeling of r.
func streamedLabels(r *imagegraph.Raster, dst []uint32, count int, err error) (*imagegraph.Labels, error) {
	if err != nil {
		return nil, fmt.Errorf("imagegraph: %w", err)
	}
	return &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: count}, nil
}

// errSecondValue stops the binary labeling of a multilabel raster once a
// second foreground value has arrived.
var errSecondValue = errors.New("imagegraph: a second foreground value")

// singleScan tells, as a raster's samples arrive, whether those that have
// arrived hold one foreground value (singleValue's test, in parts).
type singleScan struct {
	mu      sync.Mutex
	scanned int  // samples scanned
	mixed   bool // a second value was seen
	// step scans samples [lo, hi) and reports whether they and those
	// before hold at most one foreground value.
	step func(lo, hi int) bool
}

// scanParts returns a singleScan of d by scan (see singleParallel).
func scanParts[T comparable](d []T, scan func([]T) (T, bool, bool)) *singleScan {
	var v T
	found := false
	return &singleScan{step: func(lo, hi int) bool {
		w, some, alone := scan(d[lo:hi])
		switch {
		case !alone:
			return false
		case !some:
			return true
		case !found:
			v, found = w, true
			return true
		}
		return w == v
	}}
}

// upTo scans the samples up to n and reports whether all of them hold at
// most one foreground value. It is safe for concurrent use.
func (s *singleScan) upTo(n int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.mixed && n > s.scanned {
		s.mixed = !s.step(s.scanned, n)
		s.scanned = n
	}
	return !s.mixed
}
