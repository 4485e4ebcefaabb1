package raster

import (
	"fmt"
	"sync/atomic"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
	"github.com/cclabel/cclabel/internal/parallel"
)

// Order is how the components of a labeling are numbered.
type Order int

const (
	// FirstOccurrence numbers components 1..N in the order of their first
	// voxel in memory order (x fastest), as every labeler does.
	FirstOccurrence Order = iota
	// BySize numbers components by decreasing size, ties broken by first
	// occurrence.
	BySize
)

// ParseOrder reads an order as [Order.String] writes it: "first" or
// "size".
func ParseOrder(s string) (Order, error) {
	switch s {
	case "first", "":
		return FirstOccurrence, nil
	case "size":
		return BySize, nil
	}
	return 0, fmt.Errorf("--order %q: want first or size", s)
}

// String returns "first" or "size".
func (o Order) String() string {
	if o == BySize {
		return "size"
	}
	return "first"
}

// finishLabels applies the settings to a frame's labels, numbered by first
// occurrence: the size filters, then the order.
func (s Settings) finishLabels(l *imagegraph.Labels, threads int) {
	l.Filter(s.MinSize, s.Largest)
	if s.Order == BySize && l.Count > 1 {
		// Labels come from the labeler, at most Count: Relabel cannot fail.
		_ = measure.Relabel(l.Data, measure.SizeOrder(labelSizes(l, threads)), threads)
	}
}

// labelSizes returns the size of every component of l: label k's at
// index k-1.
func labelSizes(l *imagegraph.Labels, threads int) []int64 {
	sizes := make([]int64, l.Count+1)
	threads = parallel.ClampThreads(threads, len(l.Data)/(1<<16)+1)
	if threads == 1 || (l.Count+1)*threads > len(l.Data) {
		// Few voxels per label: shared counters.
		parallel.Ranges(len(l.Data), threads, func(lo, hi int) {
			for _, lab := range l.Data[lo:hi] {
				if lab != 0 {
					atomic.AddInt64(&sizes[lab], 1)
				}
			}
		})
		return sizes[1:]
	}
	local := make([][]int64, threads)
	parallel.RangesIndexed(len(l.Data), threads, func(t, lo, hi int) {
		c := make([]int64, l.Count+1)
		for _, lab := range l.Data[lo:hi] {
			c[lab]++
		}
		local[t] = c
	})
	for _, c := range local {
		for k, n := range c {
			sizes[k] += n
		}
	}
	return sizes[1:]
}
