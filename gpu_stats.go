package cclabel

import (
	"fmt"
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

// MeasuredRaster is the outcome of [Labeler.LabelRasterMeasured].
type MeasuredRaster struct {
	// RasterResult is the labeling. Its Labels has the shape and Count;
	// Labels.Data is nil when the GPU measured the components, which
	// never downloads the labels.
	*RasterResult
	// Table holds the measurements, [measure.Compute]'s.
	Table *measure.Table
	// First holds the index of each component's first voxel (label k at
	// k-1), where its sample value is.
	First []int
	// Measure is the time measuring took: on the GPU the intensity's
	// upload (Upload), the kernels (Kernel) and the table's download
	// (Download); on the CPU Kernel alone.
	Measure Timing
}

// LabelRasterMeasured labels r as [Labeler.LabelRaster] does and measures
// its components with opt ([measure.Compute]'s table), for callers that
// want the measurements and not the labels (cclabel's --stats-only).
//
// When the labeling runs on the GPU in one piece, the components are
// measured there, from the labels the kernels leave on the device: only
// the table comes back, and [MeasuredRaster].Labels.Data is nil. Otherwise
// (the CPU, a raster labeled in slabs, an intensity the device does not
// measure: see [cuda.MeasuresOnDevice] and [cuda.Context.LabelGridMeasure])
// the labels are those of LabelRaster and the table is measured on the
// CPU with the labeler's threads when opt.Threads is 0.
func (l *Labeler) LabelRasterMeasured(r *imagegraph.Raster, rule imagegraph.Rule, conn int, opt measure.Options) (*MeasuredRaster, error) {
	start := time.Now()
	if conn == 0 {
		conn = 8
		if r.Is3D() {
			conn = 26
		}
	}
	out := &MeasuredRaster{}
	onePiece := !r.Is3D() || r.Len() <= l.slabVoxels && !l.spreads(r, rule)
	fits := onePiece && cuda.SupportsRaster(r) && r.Len() <= imagegraph.MaxKernelVoxels && cuda.MeasuresOnDevice(opt)
	if fits {
		ran, err := l.runGPU(l.gpuPays(rasterWork(r, rule, true)), func(c *cuda.Context, setup time.Duration) error {
			m, err := c.LabelGridMeasure(r, conn, rule, opt, nil)
			if err != nil {
				return err
			}
			t := m.Timing
			out.RasterResult = &RasterResult{Backend: BackendGPU,
				Labels: &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: m.Labels.Labels, Count: m.Labels.Count},
				Timing: Timing{Setup: setup, Upload: t.Upload, Kernel: t.Kernel, Download: t.Download}}
			out.Table, out.First = m.Table, m.First
			mt := m.Measure
			out.Measure = Timing{Upload: mt.Upload, Kernel: mt.Kernel, Download: mt.Download}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !ran {
			out.RasterResult = nil
		}
	}
	if out.RasterResult == nil {
		res, err := l.LabelRaster(r, rule, conn, nil)
		if err != nil {
			return nil, err
		}
		out.RasterResult = res
	}
	if out.Table == nil {
		if out.Labels.Data == nil {
			return nil, fmt.Errorf("cclabel: measure: no labels to measure")
		}
		if opt.Threads == 0 {
			opt.Threads = l.threads
		}
		mstart := time.Now()
		t, err := measure.Compute(out.Labels.Data, r.Width, r.Height, r.Depth, out.Labels.Count, opt)
		if err != nil {
			return nil, err
		}
		out.Table, out.First = t, t.First
		out.Measure = Timing{Kernel: time.Since(mstart), Total: time.Since(mstart)}
	}
	out.Timing.Total = time.Since(start)
	return out, nil
}

// OrderMeasuredBySize numbers the components of m by decreasing size, ties
// broken by first occurrence ([measure.SizeOrder]), as
// [Labeler.OrderBySize] does: its table, its first voxels, and its labels
// when they came back. It fails, changing nothing, when the table, the
// first voxels and the count disagree.
func (l *Labeler) OrderMeasuredBySize(m *MeasuredRaster) error {
	t := m.Table
	if len(t.Components) != m.Labels.Count || len(m.First) != m.Labels.Count {
		return fmt.Errorf("cclabel: order by size: %d components, %d first voxels for %d", len(t.Components), len(m.First), m.Labels.Count)
	}
	sizes := make([]int64, len(t.Components))
	for k, c := range t.Components {
		sizes[k] = c.Size
	}
	perm := measure.SizeOrder(sizes)
	if m.Labels.Data != nil {
		if err := measure.Relabel(m.Labels.Data, perm, l.threads); err != nil {
			return err
		}
	}
	if err := t.Renumber(perm); err != nil {
		return err
	}
	first := make([]int, len(m.First))
	for k := 1; k < len(perm); k++ {
		first[perm[k]-1] = m.First[k-1]
	}
	m.First = first
	return nil
}
