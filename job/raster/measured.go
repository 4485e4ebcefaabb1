package raster

import (
	"fmt"
	"io"
	"math"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/slabs"
)

// MeasuresWhileLabeling reports whether a file's tables are measured as it
// is labeled ([LabelVolumeMeasured], [LabelImageMeasured]) rather than from
// its labels once they are made: when gpu says that its labeling goes to
// the GPU, which then measures it where the labels are, no label output
// is asked for (labelOutputs false), a statistics or contacts file is,
// and no size filter applies.
func MeasuresWhileLabeling(gpu, labelOutputs bool, stats, contacts string, s Settings) bool {
	return gpu && !labelOutputs && (stats != "" || contacts != "") && s.MinSize <= 1 && s.Largest <= 0
}

// Measured is a file labeled and measured at once: the tables of its
// frames, numbered as the settings order them, and no labels. Write
// writes them.
type Measured struct {
	// VolumeLabels hold the counts, the backend and the labeling's
	// timing; their Frames are nil.
	VolumeLabels
	// Measure sums the measuring's stages over the frames: on the GPU the
	// intensity's upload, the kernels and the table's download; on the
	// CPU Kernel alone.
	Measure cclabel.Timing

	input, stats, contacts string
	opts                   formats.StatsOptions
	tables                 []formats.FrameTables
}

// LabelVolumeMeasured labels every frame of vol as [LabelVolume] does and
// measures it for the statistics and contacts files of out, as
// [WriteVolume] would measure them, with
// [cclabel.Labeler.LabelRasterMeasured]: on the GPU only the tables come
// back. The tables are [WriteVolume]'s: the same rows, numbered in the
// same order. Size filters are not applied ([MeasuresWhileLabeling]).
func LabelVolumeMeasured(l *cclabel.Labeler, out VolumeOutputs, vol *imagegraph.Volume, s Settings, conn int) (*Measured, error) {
	if s.MinSize > 1 || s.Largest > 0 {
		return nil, fmt.Errorf("%s: size filters need the labels", out.Input)
	}
	iv, release, err := intensityOf(out.Input, out.Stats, out.Intensity, vol, s, func(p string) (*imagegraph.Volume, func(), error) {
		return formats.MapVolumeFileStreaming(p, nil, nil)
	})
	if err != nil {
		return nil, err
	}
	defer release()
	rule := s.Rule
	rule.Slope, rule.Inter = vol.Slope, vol.Inter
	f0 := vol.Frames[0]
	m := &Measured{input: out.Input, stats: out.Stats, contacts: out.Contacts,
		opts: formats.StatsOptions{Is3D: true, Affine: &vol.Affine, Frames: len(vol.Frames), Perimeter: f0.Depth == 1}}
	m.Conn = conn
	if f0.Depth == 1 { // a 2D file: the in-plane part of the stencil
		m.Conn = slabs.InPlane(conn)
	}
	spacing := [3]float64{math.Abs(vol.Spacing[0]), math.Abs(vol.Spacing[1]), math.Abs(vol.Spacing[2])}
	for t, f := range vol.Frames {
		in := frameInput{values: f, spacing: spacing}
		if iv != nil {
			in.intensity, in.slope, in.inter = iv.Frames[min(t, len(iv.Frames)-1)], iv.Slope, iv.Inter
		}
		if err := m.frame(l, in, rule, s); err != nil {
			return nil, fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	return m, nil
}

// LabelImageMeasured labels img as [LabelImage] does and measures it for
// the statistics and contacts files of out, as [WriteImage] would measure
// them, with [cclabel.Labeler.LabelRasterMeasured]: on the GPU only the
// tables come back. The tables are [WriteImage]'s. Size filters are not
// applied ([MeasuresWhileLabeling]).
func LabelImageMeasured(l *cclabel.Labeler, out ImageOutputs, img *formats.Image, s Settings, conn int) (*Measured, error) {
	if s.MinSize > 1 || s.Largest > 0 {
		return nil, fmt.Errorf("%s: size filters need the labels", out.Input)
	}
	r := img.Raster
	iv, release, err := intensityOf(out.Input, out.Stats, out.Intensity, imagegraph.NewVolume(r, "image"), s,
		func(p string) (*imagegraph.Volume, func(), error) {
			in, release, err := formats.MapImageFile(p, nil)
			if err != nil {
				return nil, nil, err
			}
			return imagegraph.NewVolume(in.Raster, "image"), release, nil
		})
	if err != nil {
		return nil, err
	}
	defer release()
	m := &Measured{input: out.Input, stats: out.Stats, contacts: out.Contacts,
		opts: formats.StatsOptions{Is3D: r.Is3D(), Perimeter: !r.Is3D()}}
	m.Conn = conn
	in := frameInput{values: r, spacing: [3]float64{1, 1, 1}}
	if iv != nil {
		in.intensity = iv.Frames[0]
	}
	if err := m.frame(l, in, s.Rule, s); err != nil {
		return nil, fmt.Errorf("%s: %w", out.Input, err)
	}
	return m, nil
}

// frame labels and measures the frame of in (its labels nil) under rule
// and s, and appends its tables, counts and timing to m.
func (m *Measured) frame(l *cclabel.Labeler, in frameInput, rule imagegraph.Rule, s Settings) error {
	r, err := withBackground(in.values, s, l.Threads())
	if err != nil {
		return err
	}
	stats := m.stats != ""
	mr, err := l.LabelRasterMeasured(r, rule, m.Conn, in.options(s.Measures, stats, m.contacts != "", l.Threads()))
	if err != nil {
		return err
	}
	first, err := ordered(mr, s.Order, l.Threads())
	if err != nil {
		return err
	}
	res := mr.RasterResult
	if res.Backend == cclabel.BackendGPU {
		if m.GPU == nil {
			m.GPU = &cclabel.Timing{}
		}
		m.GPU.Upload += res.Timing.Upload
		m.GPU.Kernel += res.Timing.Kernel
		m.GPU.Download += res.Timing.Download
		m.GPU.Join += res.Timing.Join
		m.GPU.Total += res.Timing.Total
	}
	m.Timing = m.Timing.Plus(res.Timing)
	m.Measure = m.Measure.Plus(mr.Measure)
	m.tables = append(m.tables, frameTables(mr.Table, first, in.values, s.Measures, stats, m.contacts != ""))
	count := res.Labels.Count
	m.Frames = append(m.Frames, nil)
	m.PerFrame = append(m.PerFrame, count)
	m.Total += count
	m.Last = &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Count: count}
	m.Backend = res.Backend
	return nil
}

// ordered numbers mr's table in the order o (renumbering it in place) and
// returns the index of each component's first voxel in that numbering
// (label k at k-1): mr.First, or found in its labels when it has them.
func ordered(mr *cclabel.MeasuredRaster, o Order, threads int) ([]int, error) {
	first, t := mr.First, mr.Table
	if first == nil {
		if mr.Labels.Data == nil {
			return nil, fmt.Errorf("measure: neither labels nor first voxels came back")
		}
		first = parallel.FirstIndices(mr.Labels.Data, mr.Labels.Count, threads)
	}
	if len(first) != len(t.Components) {
		return nil, fmt.Errorf("measure: %d first voxels for %d components", len(first), len(t.Components))
	}
	if o != BySize || len(t.Components) < 2 {
		return first, nil
	}
	sizes := make([]int64, len(t.Components))
	for i, c := range t.Components {
		sizes[i] = c.Size
	}
	perm := measure.SizeOrder(sizes)
	if err := t.Renumber(perm); err != nil {
		return nil, err
	}
	moved := make([]int, len(first))
	for k := 1; k < len(perm); k++ {
		moved[perm[k]-1] = first[k-1]
	}
	return moved, nil
}

// Write writes the statistics and contacts files of m ("-" to stdout), as
// [WriteVolume] or [WriteImage] writes them.
func (m *Measured) Write(s Settings, stdout io.Writer) error {
	o := m.opts
	o.Intensity, o.Shape = s.Measures.Intensity, s.Measures.Shape
	err := formats.WriteTables(m.stats, m.contacts, stdout, o, func(t int) (formats.FrameTables, error) {
		if t < 0 || t >= len(m.tables) {
			return formats.FrameTables{}, fmt.Errorf("frame %d of %d measured", t, len(m.tables))
		}
		return m.tables[t], nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", m.input, err)
	}
	return nil
}
