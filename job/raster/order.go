package raster

import (
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
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

// String returns "first" or "size".
func (o Order) String() string {
	if o == BySize {
		return "size"
	}
	return "first"
}

// finishLabels applies the settings to a frame's labels, numbered by first
// occurrence: the size filters, then the order.
func (s Settings) finishLabels(l *imagegraph.Labels, threads int) error {
	l.Filter(s.MinSize, s.Largest)
	if s.Order != BySize || l.Count < 2 {
		return nil
	}
	// The sizes come from a measuring pass of nothing else.
	t, err := measure.Compute(l.Data, l.Width, l.Height, l.Depth, l.Count, measure.Options{Threads: threads})
	if err != nil {
		return err
	}
	sizes := make([]int64, len(t.Components))
	for i, c := range t.Components {
		sizes[i] = c.Size
	}
	return measure.Relabel(l.Data, measure.SizeOrder(sizes), threads)
}
