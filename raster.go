package cclabel

import (
	"fmt"
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/parallel"
)

// RasterResult is the outcome of labeling a raster.
type RasterResult struct {
	// Labels holds one label per voxel, x fastest: 0 for background,
	// 1..Count by first occurrence.
	Labels *imagegraph.Labels
	// Backend is the backend that labeled: [BackendGPU], [BackendCPU] or
	// [BackendSerial].
	Backend Backend
	// Timing is where the call spent its time.
	Timing Timing
	// Narrow is set by LabelRasterNarrow only: the labels as uint16 when
	// the GPU or the CPU labeler gave them so. Labels.Data is then nil;
	// Labels has the shape and Count.
	Narrow []uint16
}

// LabelRaster labels the connected components of r under rule. conn is the
// connectivity (4 or 8 in 2D, 6, 18 or 26 in 3D; 0 means 8 or 26). On the
// CPU, dst is reused for the labels when it has r.Len() entries; otherwise a
// buffer is allocated and its page faults taken where they cost least
// ([parallel.AllocFor]: touched up front on 4 or more threads, else faulted
// in by a background goroutine ahead of the labeler); Timing.Allocate is the
// time spent before labeling. The GPU path also writes into dst when it fits,
// and otherwise allocates as part of its download. dst's contents do not
// matter.
//
// Under [BackendAuto] a raster goes to the GPU when its samples are of a type
// the kernels take (8-, 16- and 32-bit integers, float32), a GPU is usable,
// and the cost model of [BackendAuto] expects the GPU to be faster. Under
// [BackendGPU] other sample types are an error.
//
// A raster of more than [imagegraph.MaxPixels] voxels (up to
// [imagegraph.MaxVoxels]) is labeled in memory as slabs of whole planes, each
// within one kernel's reach, joined at their seams (package slabs): the
// labels are the same as one kernel's would be. With several GPUs
// (Options.GPUs) a large 3D raster is spread over them the same way.
func (l *Labeler) LabelRaster(r *imagegraph.Raster, rule imagegraph.Rule, conn int, dst []uint32) (*RasterResult, error) {
	return l.labelRaster(r, rule, conn, dst, true, nil, nil)
}

// LabelRasterNarrow is [Labeler.LabelRaster] for callers that take uint16
// labels. Such a caller is, for instance, a writer of uint16 label files.
// When r, labeled in one piece, has at most 65535 components, the labels come
// back in [RasterResult.Narrow] (in dst16 when it has r.Len() entries), with
// Labels.Data nil: one GPU narrows them on the device (the download and the
// host array are half as large), and the CPU writes them as uint16 when the
// rule is binary ([gridcc.LabelNarrow]: dst then only holds the labeler's
// scratch, and an array made for it is faulted in only where that is
// written). Otherwise the result is [Labeler.LabelRaster]'s.
func (l *Labeler) LabelRasterNarrow(r *imagegraph.Raster, rule imagegraph.Rule, conn int, dst []uint32, dst16 []uint16) (*RasterResult, error) {
	if dst16 == nil {
		dst16 = []uint16{} // not nil: asks for the narrow download
	}
	return l.labelRaster(r, rule, conn, dst, true, dst16, nil)
}

// LabelRasterNarrowTo is [Labeler.LabelRasterNarrow] handing uint16 labels
// to rows as the CPU labeler makes them, a few whole rows at a time
// ([gridcc.LabelNarrowTo]), instead of keeping them. rows is called from
// several goroutines at once on disjoint rows (row counted from 0 across
// the planes, labels holding whole rows, reused once it returns), each row
// once; an error of rows ends the calls and is returned. When the labels
// went to rows, the result's Labels.Data and Narrow are both nil.
// Otherwise the result is LabelRasterNarrow's: a GPU's narrow download in
// Narrow, or uint32 labels.
func (l *Labeler) LabelRasterNarrowTo(r *imagegraph.Raster, rule imagegraph.Rule, conn int, dst []uint32, rows func(row int, labels []uint16) error) (*RasterResult, error) {
	if rows == nil {
		return nil, fmt.Errorf("cclabel: LabelRasterNarrowTo without rows")
	}
	return l.labelRaster(r, rule, conn, dst, true, []uint16{}, rows)
}

// labelRaster is LabelRaster; spread lets it spread r over the labeler's
// peers (not for the slabs and seams of a raster already spread); a
// non-nil dst16 makes it LabelRasterNarrow, and rows with it
// LabelRasterNarrowTo.
func (l *Labeler) labelRaster(r *imagegraph.Raster, rule imagegraph.Rule, conn int, dst []uint32, spread bool, dst16 []uint16, rows func(int, []uint16) error) (*RasterResult, error) {
	start := time.Now()
	if conn == 0 {
		conn = 8
		if r.Is3D() {
			conn = 26
		}
	}
	if r.Is3D() {
		// spreads takes the GPU lock to ask whether a GPU is usable: once.
		spread = spread && l.spreads(r, rule)
		if spread || r.Len() > l.slabVoxels {
			return l.labelSlabs(r, rule, conn, dst, start, spread)
		}
	}
	fits := cuda.SupportsRaster(r)
	if l.opts.Backend == BackendGPU && !fits {
		return nil, fmt.Errorf("gpu backend: the GPU kernels do not take %s samples (uint8, uint16, int16, uint32, int32 and float32 only)", r.Kind)
	}
	// A 2D raster past the kernels' reach (slabs are for 3D) stays on the
	// CPU under auto; under BackendGPU the kernels' error says why.
	fits = fits && (r.Len() <= imagegraph.MaxKernelVoxels || l.opts.Backend == BackendGPU)
	res := &RasterResult{Backend: BackendGPU}
	gpu := fits && l.gpuPays(rasterWork(r, rule, dst16 != nil))
	if gpu && len(dst) != r.Len() && len(dst16) != r.Len() && l.starting() {
		if err := r.Validate(); err != nil {
			return nil, err // before allocating for its sides
		}
		allocStart := time.Now()
		dst, dst16 = readyLabels(r.Len(), dst16 != nil, l.threads)
		res.Timing.Allocate = time.Since(allocStart)
	}
	ran, err := l.runGPU(gpu, func(c *cuda.Context, setup time.Duration) error {
		var g cuda.GridLabels
		var t cuda.Timing
		var err error
		if dst16 != nil {
			g, t, err = c.LabelGridNarrow(r, conn, rule, dst, dst16)
		} else {
			g.Labels, g.Count, t, err = c.LabelGridInto(r, conn, rule, dst)
		}
		if err != nil {
			return err
		}
		res.Labels = &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: g.Labels, Count: g.Count}
		res.Narrow = g.Narrow
		res.Timing = Timing{Setup: setup, Allocate: res.Timing.Allocate, Upload: t.Upload, Kernel: t.Kernel, Download: t.Download}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !ran && dst16 != nil {
		res.Backend = l.CPUBackend()
		kernelStart := time.Now()
		progress := fileprogress.For(r).StepReporter(fileprogress.Steps)
		opts := gridcc.Options{Connectivity: conn, Threads: l.threads, Progress: progress}
		if rows != nil {
			res.Labels, _, err = gridcc.LabelNarrowTo(r, rule, opts, dst, rows)
		} else {
			res.Labels, res.Narrow, err = gridcc.LabelNarrow(r, rule, opts, dst, dst16)
		}
		if err != nil {
			return nil, err
		}
		res.Timing.Kernel = time.Since(kernelStart)
	} else if !ran {
		res.Backend = l.CPUBackend()
		if len(dst) != r.Len() {
			if err := r.Validate(); err != nil {
				return nil, err // before allocating for its sides
			}
			allocStart := time.Now()
			var filled func()
			dst, filled = parallel.AllocFor[uint32](r.Len(), l.threads)
			defer filled()
			res.Timing.Allocate = time.Since(allocStart)
		}
		kernelStart := time.Now()
		// A labeling watched by a progress display reports its bands.
		progress := fileprogress.For(r).StepReporter(fileprogress.Steps)
		res.Labels, err = gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: l.threads, Progress: progress}, dst)
		if err != nil {
			return nil, err
		}
		res.Timing.Kernel = time.Since(kernelStart)
	}
	res.Timing.Total = time.Since(start)
	return res, nil
}

// CPUBackend returns the backend that labels when the GPU does not. It is
// [BackendSerial] for a serial labeler, else [BackendCPU].
func (l *Labeler) CPUBackend() Backend {
	if l.opts.Backend == BackendSerial {
		return BackendSerial
	}
	return BackendCPU
}
