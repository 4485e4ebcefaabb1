package imagegraph

import (
	"fmt"

	"github.com/cclabel/cclabel/ecl/grid"
	"github.com/cclabel/cclabel/ecl/grid/runs"
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
// Under the multilabel rule the samples are labeled as keys even when the
// raster turns out to hold one foreground value (which Label labels as a
// binary mask, faster): the labels are the same.
func LabelStreamed(r *Raster, rule Rule, opts Options, dst []uint32, bands int, wait func(samples int) error) (*Labels, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if r.Len() > MaxPixels {
		return nil, fmt.Errorf("imagegraph: a %dx%dx%d raster has more than %d voxels: it is not labeled streamed", r.Width, r.Height, r.Depth, MaxPixels)
	}
	if err := rule.Validate(); err != nil {
		return nil, err
	}
	conn := opts.connectivity(r)
	if err := ValidConnectivity(conn, r.Is3D()); err != nil {
		return nil, err
	}
	if len(dst) != r.Len() {
		return nil, fmt.Errorf("imagegraph: %d labels for %d voxels", len(dst), r.Len())
	}
	rows := rasterRows{r: r, rule: rule, cut: rowCut(r, rule)}
	shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
	s := grid.Stream{Threads: opts.Threads, Bands: bands}
	if wait != nil {
		s.Wait = func(end int) error { return wait(end * r.Width) }
	}
	var count int
	var err error
	switch {
	case rule.Mode != Multilabel:
		count, err = grid.LabelBinaryStreamed(shape, conn, rows, dst, s)
	case rows.wide():
		count, err = runs.LabelRunsStreamed[uint64](shape, conn, wideRows{rows}, dst, s)
	default:
		count, err = runs.LabelRunsStreamed[uint32](shape, conn, rows, dst, s)
	}
	if err != nil {
		return nil, fmt.Errorf("imagegraph: %w", err)
	}
	return &Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: count}, nil
}
