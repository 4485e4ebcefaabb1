package raster

import (
	"fmt"
	"io"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

// Measures say what a file's statistics measure beyond the label, value,
// size, bounding box and centroid (and the physical volume and centroid of
// volumes) ([formats.WriteStatsTable]).
type Measures struct {
	// Intensity adds the intensity statistics of every component: sum,
	// mean, min, max, std and the intensity-weighted centroid. They are
	// read from the outputs' Intensity file, or from the input itself
	// under a threshold rule.
	Intensity bool
	// Shape adds the surface (3D) or perimeter (2D) and the equivalent
	// diameter.
	Shape bool
}

// IntensityError reports a file's intensity statistics that cannot be
// measured: no intensity image to read them from (Intensity ""), or one of
// another shape.
type IntensityError struct {
	Input, Intensity string
	// Shape and Want are the intensity image's shape and the input's, as
	// XxYxZ and frames.
	Shape, Want string
}

func (e *IntensityError) Error() string {
	if e.Intensity == "" {
		return fmt.Sprintf("%s: intensity statistics need --intensity FILE (or --threshold, which measures the input itself)", e.Input)
	}
	return fmt.Sprintf("%s: --intensity %s is %s; the input is %s", e.Input, e.Intensity, e.Shape, e.Want)
}

// frameInput is what one frame's statistics and contacts are measured
// from.
type frameInput struct {
	labels *imagegraph.Labels
	// values is the input frame, whose samples give the value column.
	values *imagegraph.Raster
	// intensity, scaled by slope and inter, gives the intensity
	// statistics; nil when none are asked for.
	intensity    *imagegraph.Raster
	slope, inter float64
	spacing      [3]float64
	// measured, when not nil, holds the measurements made as it was labeled.
	measured *cclabel.MeasuredRaster
}

// writeTables measures the frames of o (frame(t) gives frame t's input) as
// s asks and writes their statistics and contacts to the paths stats and
// contacts ("" for none, "-" for stdout).
func writeTables(input, stats, contacts string, stdout io.Writer, frame func(t int) (frameInput, error), o formats.StatsOptions, s Settings) error {
	o.Intensity, o.Shape = s.Measures.Intensity, s.Measures.Shape
	err := formats.WriteTables(stats, contacts, stdout, o, func(t int) (formats.FrameTables, error) {
		f, err := frame(t)
		if err != nil {
			return formats.FrameTables{}, err
		}
		return measureFrame(f, s.Measures, stats != "", contacts != "", s.Threads)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", input, err)
	}
	return nil
}

// measureFrame measures one frame: its statistics rows when stats is set,
// with the measures m asks for, and its contacts when contacts is set.
// One parallel pass of [measure.Compute] gives them all, the rows holding
// the value of each component's first voxel: [imagegraph.Statistics]' rows
// for labels numbered 1..count with none missing.
func measureFrame(f frameInput, m Measures, stats, contacts bool, threads int) (_ formats.FrameTables, err error) {
	extra := stats && (m.Intensity || m.Shape)
	if !stats && !contacts {
		return formats.FrameTables{}, nil
	}
	var t *measure.Table
	var first []int
	if l := f.labels; f.measured != nil {
		t, first = f.measured.Table, f.measured.First
	} else if t, err = measure.Compute(l.Data, l.Width, l.Height, l.Depth, l.Count, f.options(m, stats, contacts, threads)); err != nil {
		return formats.FrameTables{}, err
	} else {
		first = t.First
	}
	var rows []imagegraph.ComponentStats
	var ms []formats.Measures
	if stats {
		rows = make([]imagegraph.ComponentStats, len(t.Components))
		for i, c := range t.Components {
			rows[i] = imagegraph.ComponentStats{Label: uint32(i + 1), Size: c.Size, Min: c.Min, Max: c.Max, Centroid: c.Centroid}
			if first[i] >= 0 {
				rows[i].Sample = f.values.SampleAt(first[i])
				rows[i].Value = rows[i].Sample.Float()
			}
		}
	}
	if extra {
		ms = make([]formats.Measures, len(t.Components))
		for i, c := range t.Components {
			ms[i] = formats.Measures{Sum: c.Sum, Mean: c.Mean, Min: c.IMin, Max: c.IMax, Std: c.Std,
				WCentroid: c.WCentroid, Surface: c.Surface, EqDiameter: c.EqDiameter}
		}
	}
	var cs []formats.Contact
	if contacts {
		cs = make([]formats.Contact, len(t.Contacts))
		for i, c := range t.Contacts {
			cs[i] = formats.Contact{A: c.A, B: c.B, Faces: c.Faces, Area: c.Area}
		}
	}
	return formats.FrameTables{Stats: rows, Measures: ms, Contacts: cs}, nil
}

// options returns the options that measure f for the tables asked for
// (with the measures m asks for), with threads goroutines.
func (f frameInput) options(m Measures, stats, contacts bool, threads int) measure.Options {
	opt := measure.Options{Spacing: f.spacing, Surface: stats && m.Shape, Contacts: contacts, Threads: threads}
	if stats && m.Intensity {
		opt.Intensity, opt.Slope, opt.Inter = f.intensity, f.slope, f.inter
	}
	return opt
}

// labelMeasured labels and measures f, in's frame, for the tables asked
// for, numbered in s's order, and drops its labels.
func labelMeasured(l *cclabel.Labeler, f *imagegraph.Raster, in frameInput, rule imagegraph.Rule, conn int, s Settings, stats, contacts bool) (*cclabel.MeasuredRaster, error) {
	mr, err := l.LabelRasterMeasured(f, rule, conn, in.options(s.Measures, stats, contacts, l.Threads()))
	if err != nil {
		return nil, err
	}
	mr.Labels.Data = nil
	if s.Order == BySize {
		err = l.OrderMeasuredBySize(mr)
	}
	return mr, err
}

// intensityOf returns the volume of a file's intensity statistics under s:
// none when s asks for none or stats is "", the file path names, read by
// read (with release to call when done), or the input vol itself under a
// threshold rule when path is "". Its frames have vol's shape, and are one
// or as many as vol's.
func intensityOf(input, stats, path string, vol *imagegraph.Volume, s Settings,
	read func(string) (*imagegraph.Volume, func(), error)) (iv *imagegraph.Volume, release func(), err error) {
	release = func() {}
	switch {
	case !s.Measures.Intensity || stats == "":
		return nil, release, nil
	case path == "" && s.Rule.Mode == imagegraph.Threshold:
		return vol, release, nil
	case path == "":
		return nil, release, &IntensityError{Input: input}
	}
	if iv, release, err = read(path); err != nil {
		return nil, nil, err
	}
	g, f := iv.Frames[0], vol.Frames[0]
	if g.Width != f.Width || g.Height != f.Height || g.Depth != f.Depth || len(iv.Frames) != 1 && len(iv.Frames) != len(vol.Frames) {
		release()
		shape := func(r *imagegraph.Raster, n int) string {
			return fmt.Sprintf("%dx%dx%d, %d frame(s)", r.Width, r.Height, r.Depth, n)
		}
		return nil, nil, &IntensityError{Input: input, Intensity: path, Shape: shape(g, len(iv.Frames)), Want: shape(f, len(vol.Frames))}
	}
	return iv, release, nil
}
