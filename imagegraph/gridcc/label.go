package gridcc

import (
	"fmt"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
	"github.com/cclabel/cclabel/internal/parallel"
)

// Options configure [Label] and [LabelStreamed].
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
	// [LabelStreamed] does with every sample in place, on its own bands
	// (one a thread).
	Progress func(done, total int)
}

// connectivity returns the effective connectivity for r.
func (o Options) connectivity(r *imagegraph.Raster) int {
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
func checkLabeling(r *imagegraph.Raster, rule imagegraph.Rule, opts Options) (int, error) {
	if err := r.Validate(); err != nil {
		return 0, err
	}
	if r.Len() > imagegraph.MaxPixels {
		return 0, fmt.Errorf("imagegraph: a %dx%dx%d raster has more than %d voxels: label it in slabs (cclabel.Labeler.LabelRaster does)", r.Width, r.Height, r.Depth, imagegraph.MaxPixels)
	}
	if err := rule.Validate(); err != nil {
		return 0, err
	}
	conn := opts.connectivity(r)
	if err := imagegraph.ValidConnectivity(conn, r.Is3D()); err != nil {
		return 0, err
	}
	return conn, nil
}

// Label labels the connected components of r under rule. It runs ECL-CC
// on the raster's implicit grid graph, building no CSR. dst, if it has
// r.Len() entries, takes the labels. r may have at most
// [imagegraph.MaxPixels] voxels (cclabel.Labeler.LabelRaster labels larger
// rasters in slabs).
func Label(r *imagegraph.Raster, rule imagegraph.Rule, opts Options, dst []uint32) (*imagegraph.Labels, error) {
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
	src := newSource(r, rule)
	if rule.Mode == imagegraph.Multilabel && src.single(opts.Threads) {
		// One foreground value: multilabel equals binary, which has
		// faster paths.
		rule = imagegraph.Rule{Mode: imagegraph.Binary}
		src = newSource(r, rule)
	}
	shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
	var count int
	if rule.Mode != imagegraph.Multilabel {
		count, err = grid.LabelBinary(shape, conn, src, dst, opts.Threads)
	} else {
		count, err = labelMultilabel(shape, conn, src, dst, opts.Threads)
	}
	if err != nil {
		return nil, fmt.Errorf("imagegraph: %w", err)
	}
	return &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: count}, nil
}

// labelMultilabel labels a multilabel raster of the shape, read from src,
// on its runs of equal keys.
func labelMultilabel(shape grid.GridShape, conn int, src source, dst []uint32, threads int) (int, error) {
	if narrow, wide := src.swappedRuns(shape.Height, shape.Depth); narrow != nil || wide != nil {
		// Runs along y, much longer: swap x and y.
		if wide != nil {
			return runs.LabelRunsSwapped(shape, conn, wide, dst, threads)
		}
		return runs.LabelRunsSwapped(shape, conn, narrow, dst, threads)
	}
	narrow, wide := src.runs()
	if wide != nil {
		return runs.LabelRuns(shape, conn, wide, dst, threads)
	}
	return runs.LabelRuns(shape, conn, narrow, dst, threads)
}

// LabelNarrow is [Label] for callers that take uint16 labels. When the
// labeling is binary (or multilabel with one foreground value) and has at
// most 65535 components, its second pass writes the
// labels as uint16 into dst16 (when it has r.Len() entries, else into a new
// array), which LabelNarrow returns with Labels.Data nil; dst then only
// holds the labeler's scratch, and when it does not have r.Len() entries
// the array made for it is never faulted in beyond that. Otherwise it
// returns Label's result and a nil uint16 array.
func LabelNarrow(r *imagegraph.Raster, rule imagegraph.Rule, opts Options, dst []uint32, dst16 []uint16) (*imagegraph.Labels, []uint16, error) {
	labels, narrow, _, err := labelNarrow(r, rule, opts, dst, dst16, nil)
	return labels, narrow, err
}

// LabelNarrowTo is [LabelNarrow] handing the uint16 labels to rows as the
// second pass makes them, a few whole rows at a time ([grid.Rows16]),
// instead of keeping them: no array of all of them is made. It reports
// whether the labels went to rows; the returned labels then have the shape
// and count, and Data nil. Otherwise they are [Label]'s. An error of rows
// ends the calls and is returned once the labeling is done.
func LabelNarrowTo(r *imagegraph.Raster, rule imagegraph.Rule, opts Options, dst []uint32, rows grid.Rows16) (*imagegraph.Labels, bool, error) {
	if rows == nil {
		return nil, false, fmt.Errorf("imagegraph: LabelNarrowTo without rows")
	}
	labels, _, streamed, err := labelNarrow(r, rule, opts, dst, nil, rows)
	return labels, streamed, err
}

// labelNarrow is LabelNarrow, or with rows set LabelNarrowTo.
func labelNarrow(r *imagegraph.Raster, rule imagegraph.Rule, opts Options, dst []uint32, dst16 []uint16, rows grid.Rows16) (*imagegraph.Labels, []uint16, bool, error) {
	conn, err := checkLabeling(r, rule, opts)
	if err != nil {
		return nil, nil, false, err
	}
	src := newSource(r, rule)
	if rule.Mode == imagegraph.Multilabel && src.single(opts.Threads) {
		rule = imagegraph.Rule{Mode: imagegraph.Binary}
		src = newSource(r, rule)
	}
	if opts.Progress != nil && rule.Mode == imagegraph.Multilabel {
		labels, err := Label(r, rule, opts, dst)
		return labels, nil, false, err
	}
	shape := grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}
	var count int
	var narrow []uint16
	streamed := false
	if rule.Mode == imagegraph.Multilabel {
		if len(dst) != r.Len() {
			var filled func()
			dst, filled = parallel.AllocFor[uint32](r.Len(), opts.Threads)
			defer filled()
		}
		count, err = labelMultilabel(shape, conn, src, dst, opts.Threads)
	} else {
		if len(dst) != r.Len() {
			dst = make([]uint32, r.Len()) // faulted in where touched
			// Scratch only, once the labels go elsewhere: its pages
			// are handed back on every labeling thread rather than
			// by the process's exit on one.
			defer func() {
				if narrow != nil || streamed {
					parallel.Discard(dst, opts.Threads)
				}
			}()
		}
		var s grid.Stream
		if opts.Progress != nil { // the same bands as Label's, counted
			s = grid.Stream{Threads: opts.Threads, Progress: opts.Progress}
			s.Bands = s.ThreadCount()
		}
		switch {
		case rows != nil && opts.Progress != nil:
			count, streamed, err = grid.LabelBinaryStreamedNarrowTo(shape, conn, src, dst, rows, s)
		case rows != nil:
			count, streamed, err = grid.LabelBinaryNarrowTo(shape, conn, src, dst, rows, opts.Threads)
		case opts.Progress != nil:
			count, narrow, err = grid.LabelBinaryStreamedNarrow(shape, conn, src, dst, dst16, s)
		default:
			count, narrow, err = grid.LabelBinaryNarrow(shape, conn, src, dst, dst16, opts.Threads)
		}
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("imagegraph: %w", err)
	}
	labels := &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: count}
	if narrow != nil || streamed {
		labels.Data = nil
	}
	return labels, narrow, streamed, nil
}
