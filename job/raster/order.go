package raster

import (
	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
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
// occurrence, with l: the size filters, then the order. Labels not kept
// (nil Data, measured as labeled) were numbered with their measurements.
func (s Settings) finishLabels(l *cclabel.Labeler, labels *imagegraph.Labels) error {
	labels.Filter(s.MinSize, s.Largest)
	if s.Order != BySize || labels.Count < 2 || labels.Data == nil {
		return nil
	}
	return l.OrderBySize(&cclabel.RasterResult{Labels: labels}, nil)
}
