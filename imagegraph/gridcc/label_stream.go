package gridcc

import (
	"errors"
	"fmt"
	"sync"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
)

// LabelStreamed is Label for a raster whose samples arrive in memory
// order while it is labeled, as a file is decompressed into r.Data: wait(n)
// blocks until the first n samples are in place, and fails when they never
// will be (the labeling then stops with its error); nil means they all are. Bands of rows are
// linked as their samples arrive, on opts.Threads-1 goroutines (at least
// one) while the rest is read, and labeled once every sample is in place
// (grid.Stream); bands is their number (0: grid.StreamBandPixels voxels
// each). The labels are Label's, bit for bit; only dst must have r.Len()
// entries.
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
	rows := rasterRows{r: r, rule: rule, cut: rowCut(r, rule)}
	shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
	s := grid.Stream{Threads: opts.Threads, Bands: bands, Progress: opts.Progress}
	if wait != nil {
		s.Wait = func(end int) error { return wait(end * r.Width) }
	}
	var count int
	if rule.Mode == imagegraph.Multilabel {
		if scan := newSingleScan(r); scan != nil {
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
			binary := rasterRows{r: r, rule: imagegraph.Rule{Mode: imagegraph.Binary}}
			count, err = grid.LabelBinaryStreamed(shape, conn, binary, dst, single)
			if !errors.Is(err, errSecondValue) {
				return streamedLabels(r, dst, count, err)
			}
		}
	}
	switch {
	case rule.Mode != imagegraph.Multilabel:
		count, err = grid.LabelBinaryStreamed(shape, conn, rows, dst, s)
	case rows.wide():
		count, err = runs.LabelRunsStreamed[uint64](shape, conn, wideRows{rows}, dst, s)
	default:
		count, err = runs.LabelRunsStreamed[uint32](shape, conn, rows, dst, s)
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

// newSingleScan returns the scan of r's samples, or nil for a sample type
// that Label does not scan (it labels those as keys).
func newSingleScan(r *imagegraph.Raster) *singleScan {
	switch d := r.Data.(type) {
	case []uint8:
		return scanParts(d, scanByte)
	case []uint16:
		return scanParts(d, scanInt[uint16])
	case []uint32:
		return scanParts(d, scanInt[uint32])
	case []uint64:
		return scanParts(d, scanInt[uint64])
	case []int8:
		return scanParts(d, scanInt[int8])
	case []int16:
		return scanParts(d, scanInt[int16])
	case []int32:
		return scanParts(d, scanInt[int32])
	case []int64:
		return scanParts(d, scanInt[int64])
	case []float32:
		return scanParts(d, scanFloat[float32])
	case []float64:
		return scanParts(d, scanFloat[float64])
	}
	return nil
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
