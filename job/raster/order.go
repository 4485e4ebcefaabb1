package raster

import (
	"cmp"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/cclabel/cclabel/imagegraph"
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
		relabel(l.Data, sizeOrder(labelSizes(l, threads)), threads)
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

// sizeOrder returns the numbering by decreasing size, ties broken by the
// smaller label; sizes[k-1] is label k's size. perm[k] is label k's new
// label, perm[0] is 0.
func sizeOrder(sizes []int64) []uint32 {
	byRank := make([]uint32, len(sizes))
	for i := range byRank {
		byRank[i] = uint32(i + 1)
	}
	slices.SortStableFunc(byRank, func(a, b uint32) int { return cmp.Compare(sizes[b-1], sizes[a-1]) })
	perm := make([]uint32, len(sizes)+1)
	for rank, lab := range byRank {
		perm[lab] = uint32(rank + 1)
	}
	return perm
}

// relabel renumbers labels in place: label k becomes perm[k].
func relabel(labels []uint32, perm []uint32, threads int) {
	parallel.Ranges(len(labels), threads, func(lo, hi int) {
		for i, lab := range labels[lo:hi] {
			labels[lo+i] = perm[lab]
		}
	})
}
