package imagegraph

import (
	"fmt"

	"github.com/cclabel/cclabel/ecl/grid"
	"github.com/cclabel/cclabel/ecl/grid/runs"
	"github.com/cclabel/cclabel/internal/parallel"
)

// Labels are the result of labeling a raster: one label per pixel, x
// fastest, 0 for background and 1..Count by first occurrence.
type Labels struct {
	Width, Height, Depth int
	Data                 []uint32
	Count                int
}

// Options configure Label.
type Options struct {
	// Connectivity is 4 or 8 in 2D, 6, 18 or 26 in 3D; 0 means the
	// fullest (8 or 26).
	Connectivity int
	// Threads is the number of goroutines; 0 means GOMAXPROCS, 1 the
	// serial path.
	Threads int
	// Progress, when set, is told how far the labeling is: done of total
	// steps (a band of rows through one of its two passes), from several
	// goroutines, at once and out of order (a multilabel raster labeled
	// again as keys counts again from 0). Label then labels as
	// LabelStreamed does with every sample in place, on its own bands
	// (one a thread).
	Progress func(done, total int)
}

// connectivity returns the effective connectivity for r.
func (o Options) connectivity(r *Raster) int {
	if o.Connectivity != 0 {
		return o.Connectivity
	}
	if r.Is3D() {
		return 26
	}
	return 8
}

// checkLabeling validates a labeling of r under rule and returns its
// connectivity: r valid and at most MaxPixels voxels (larger ones are
// labeled in slabs, as cclabel.Labeler.LabelRaster does), rule valid, the
// connectivity one r's dimensions take.
func checkLabeling(r *Raster, rule Rule, opts Options) (int, error) {
	if err := r.Validate(); err != nil {
		return 0, err
	}
	if r.Len() > MaxPixels {
		return 0, fmt.Errorf("imagegraph: a %dx%dx%d raster has more than %d voxels: label it in slabs (cclabel.Labeler.LabelRaster does)", r.Width, r.Height, r.Depth, MaxPixels)
	}
	if err := rule.Validate(); err != nil {
		return 0, err
	}
	conn := opts.connectivity(r)
	if err := ValidConnectivity(conn, r.Is3D()); err != nil {
		return 0, err
	}
	return conn, nil
}

// Label labels the connected components of r under rule with ECL-CC on the
// implicit grid graph: no CSR is built. dst, if it has r.Len() entries, is
// reused for the labels. r may have at most MaxPixels voxels
// (cclabel.Labeler.LabelRaster labels larger rasters in slabs).
func Label(r *Raster, rule Rule, opts Options, dst []uint32) (*Labels, error) {
	conn, err := checkLabeling(r, rule, opts)
	if err != nil {
		return nil, err
	}
	if len(dst) != r.Len() {
		var filled func()
		dst, filled = parallel.AllocFor[uint32](r.Len(), opts.Threads)
		defer filled()
	}
	if opts.Progress != nil { // the same bands, one a thread, counted
		return LabelStreamed(r, rule, opts, dst, grid.Stream{Threads: opts.Threads}.ThreadCount(), nil)
	}
	if rule.Mode == Multilabel && singleValue(r, opts.Threads) {
		// One foreground value: multilabel equals binary, which has
		// faster paths.
		rule = Rule{Mode: Binary}
	}
	rows := rasterRows{r: r, rule: rule, cut: rowCut(r, rule)}
	shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
	var count int
	switch {
	case rule.Mode != Multilabel:
		count, err = grid.LabelBinary(shape, conn, rows, dst, opts.Threads)
	case rows.wide():
		count, err = runs.LabelRuns[uint64](shape, conn, wideRows{rows}, dst, opts.Threads)
	default:
		count, err = runs.LabelRuns[uint32](shape, conn, rows, dst, opts.Threads)
	}
	if err != nil {
		return nil, fmt.Errorf("imagegraph: %w", err)
	}
	return &Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: count}, nil
}
