package raster

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
	"github.com/cclabel/cclabel/internal/parallel"
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
// measured: no intensity image to read them from, or one of another shape.
type IntensityError struct {
	Input, Intensity string
	// Shape and Want are the intensity image's shape (X, Y, Z, frames) and
	// the input's; both zero when no intensity image was given.
	Shape, Want [4]int
}

func (e *IntensityError) Error() string {
	if e.Intensity == "" {
		return fmt.Sprintf("%s: intensity statistics need --intensity FILE (or --threshold, which measures the input itself)", e.Input)
	}
	return fmt.Sprintf("%s: --intensity %s is %dx%dx%d with %d frame(s); the input is %dx%dx%d with %d", e.Input, e.Intensity,
		e.Shape[0], e.Shape[1], e.Shape[2], e.Shape[3], e.Want[0], e.Want[1], e.Want[2], e.Want[3])
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
}

// tables name a file's table outputs: statistics and contacts ("" for
// none, "-" for stdout).
type tables struct{ stats, contacts string }

// writeTables measures frames frames (frame(t) gives frame t's input) as m
// asks and writes their statistics (formatted as o says) and contacts.
// Contacts measured with the statistics are kept for their file; without a
// statistics file they are measured alone.
func writeTables(input string, out tables, stdout io.Writer, frames int, frame func(t int) (frameInput, error), o formats.StatsOptions, m Measures) error {
	contacts := make([][]formats.Contact, frames)
	measured := make([]bool, frames)
	run := func(t int) ([]imagegraph.ComponentStats, []formats.Measures, error) {
		f, err := frame(t)
		if err != nil {
			return nil, nil, err
		}
		rows, ms, cs, err := measureFrame(f, m, out.stats != "", out.contacts != "")
		contacts[t], measured[t] = cs, true
		return rows, ms, err
	}
	if out.stats != "" {
		o.Format, o.Intensity, o.Shape = strings.ToLower(filepath.Ext(out.stats)), m.Intensity, m.Shape
		if err := writeOutput(out.stats, stdout, func(w io.Writer) error { return formats.WriteStatsTable(w, o, run) }); err != nil {
			return fmt.Errorf("%s: %w", input, err)
		}
	}
	if out.contacts != "" {
		err := writeOutput(out.contacts, stdout, func(w io.Writer) error {
			return formats.WriteContacts(w, strings.ToLower(filepath.Ext(out.contacts)), frames, func(t int) ([]formats.Contact, error) {
				if !measured[t] {
					if _, _, err := run(t); err != nil {
						return nil, err
					}
				}
				return contacts[t], nil
			})
		})
		if err != nil {
			return fmt.Errorf("%s: %w", input, err)
		}
	}
	return nil
}

// measureFrame measures one frame: its statistics rows when stats is set,
// with the measures m asks for, and its contacts when contacts is set.
// Without measures or contacts the rows are [imagegraph.Statistics]';
// otherwise one parallel pass of [measure.Compute] gives them all, with the
// value of each component's first voxel.
func measureFrame(f frameInput, m Measures, stats, contacts bool) ([]imagegraph.ComponentStats, []formats.Measures, []formats.Contact, error) {
	extra := stats && (m.Intensity || m.Shape)
	if !extra && !contacts {
		if !stats {
			return nil, nil, nil, nil
		}
		rows, err := imagegraph.Statistics(f.labels, f.values)
		return rows, nil, nil, err
	}
	l := f.labels
	opt := measure.Options{Spacing: f.spacing, Surface: extra && m.Shape, Contacts: contacts}
	if extra && m.Intensity {
		opt.Intensity, opt.Slope, opt.Inter = f.intensity, f.slope, f.inter
	}
	t, err := measure.Compute(l.Data, l.Width, l.Height, l.Depth, l.Count, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	var rows []imagegraph.ComponentStats
	var ms []formats.Measures
	if stats {
		first := firstVoxels(l.Data, l.Count, 0)
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
	return rows, ms, cs, nil
}

// firstVoxels returns the index of the first voxel of every label 1..count
// in labels (label k's at k-1; -1 for a label that does not occur), on
// threads goroutines (0: GOMAXPROCS). Each goroutine scans a range in
// order and lowers a shared minimum by compare-and-swap, which it does at
// most once per label and range.
func firstVoxels(labels []uint32, count, threads int) []int {
	first := make([]int64, count)
	for i := range first {
		first[i] = math.MaxInt64
	}
	parallel.Ranges(len(labels), threads, func(lo, hi int) {
		prev := uint32(0)
		for i, lab := range labels[lo:hi] {
			if lab == prev || lab == 0 || int(lab) > count {
				prev = lab
				continue
			}
			prev = lab
			p := &first[lab-1]
			for at := int64(lo + i); ; {
				old := atomic.LoadInt64(p)
				if at >= old || atomic.CompareAndSwapInt64(p, old, at) {
					break
				}
			}
		}
	})
	out := make([]int, count)
	for i, v := range first {
		out[i] = -1
		if v != math.MaxInt64 {
			out[i] = int(v)
		}
	}
	return out
}

// absSpacing returns a volume's spacing as lengths.
func absSpacing(s [3]float64) [3]float64 {
	return [3]float64{math.Abs(s[0]), math.Abs(s[1]), math.Abs(s[2])}
}

// imageIntensity returns the raster of an image's intensity statistics: the
// image out.Intensity names, read with release to call when done, or under
// a threshold rule the input itself. It is nil when s asks for none.
func imageIntensity(out ImageOutputs, img *formats.Image, s Settings) (r *imagegraph.Raster, release func(), err error) {
	release = func() {}
	switch {
	case !s.Measures.Intensity || out.Stats == "":
		return nil, release, nil
	case out.Intensity == "" && s.Rule.Mode == imagegraph.Threshold:
		return img.Raster, release, nil
	case out.Intensity == "":
		return nil, release, &IntensityError{Input: out.Input}
	}
	in, release, err := formats.MapImageFile(out.Intensity, nil)
	if err != nil {
		return nil, nil, err
	}
	got, want := in.Raster, img.Raster
	if got.Width != want.Width || got.Height != want.Height {
		release()
		return nil, nil, &IntensityError{Input: out.Input, Intensity: out.Intensity,
			Shape: [4]int{got.Width, got.Height, got.Depth, 1}, Want: [4]int{want.Width, want.Height, want.Depth, 1}}
	}
	return got, release, nil
}

// volumeIntensity returns the volume of a volume's intensity statistics, as
// [imageIntensity] does: of one frame, or of as many as vol.
func volumeIntensity(out VolumeOutputs, vol *imagegraph.Volume, s Settings) (iv *imagegraph.Volume, release func(), err error) {
	release = func() {}
	switch {
	case !s.Measures.Intensity || out.Stats == "":
		return nil, release, nil
	case out.Intensity == "" && s.Rule.Mode == imagegraph.Threshold:
		return vol, release, nil
	case out.Intensity == "":
		return nil, release, &IntensityError{Input: out.Input}
	}
	iv, release, err = formats.MapVolumeFileStreaming(out.Intensity, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	g, f := iv.Frames[0], vol.Frames[0]
	if g.Width != f.Width || g.Height != f.Height || g.Depth != f.Depth || len(iv.Frames) != 1 && len(iv.Frames) != len(vol.Frames) {
		release()
		return nil, nil, &IntensityError{Input: out.Input, Intensity: out.Intensity,
			Shape: [4]int{g.Width, g.Height, g.Depth, len(iv.Frames)}, Want: [4]int{f.Width, f.Height, f.Depth, len(vol.Frames)}}
	}
	return iv, release, nil
}
