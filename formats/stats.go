package formats

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/cclabel/cclabel/imagegraph"
)

// statsRecord is one component in the JSON statistics.
type statsRecord struct {
	// Frame is the frame index, for volumes of several frames.
	Frame    *int      `json:"frame,omitempty"`
	Label    uint32    `json:"label"`
	Value    any       `json:"value"` // a SampleValue, or a float64
	Size     int64     `json:"size"`
	BBox     []int     `json:"bbox"`
	Centroid []float64 `json:"centroid"`
	// Physical units, for volumes with geometry.
	VolumeMM3  *float64  `json:"volume_mm3,omitempty"`
	CentroidMM []float64 `json:"centroid_mm,omitempty"`
	// Intensity statistics, when asked for (StatsOptions.Intensity).
	Sum         *jsonFloat  `json:"sum,omitempty"`
	Mean        *jsonFloat  `json:"mean,omitempty"`
	Min         *jsonFloat  `json:"min,omitempty"`
	Max         *jsonFloat  `json:"max,omitempty"`
	Std         *jsonFloat  `json:"std,omitempty"`
	WCentroid   []jsonFloat `json:"wcentroid,omitempty"`
	WCentroidMM []jsonFloat `json:"wcentroid_mm,omitempty"`
	SurfaceMM2  *jsonFloat  `json:"surface_mm2,omitempty"`
	Perimeter   *jsonFloat  `json:"perimeter,omitempty"`
	EqDiameter  *jsonFloat  `json:"eq_diameter,omitempty"`
}

// Measures are the measurements of one component that a statistics file
// adds to [imagegraph.ComponentStats] when [StatsOptions] asks for them.
type Measures struct {
	// Sum, Mean, Min, Max and Std (population) describe the component's
	// intensity samples, and WCentroid is their intensity-weighted
	// centroid in voxels, as x, y, z.
	Sum, Mean, Min, Max, Std float64
	WCentroid                [3]float64
	// Surface is the physical area of the component's exposed voxel faces
	// (3D), or the physical length of its exposed pixel edges (2D).
	Surface float64
	// EqDiameter is the diameter of the sphere (3D) or disc (2D) of the
	// component's physical volume (area).
	EqDiameter float64
}

// StatsOptions say what a statistics file holds ([WriteStatsTable]).
type StatsOptions struct {
	// Format is "csv" or "json", with or without a leading dot.
	Format string
	// Is3D adds the z coordinates of boxes and centroids.
	Is3D bool
	// Affine, when not nil, adds the physical measures through the
	// voxel-to-physical affine ([WriteVolumeStats]).
	Affine *[3][4]float64
	// Frames is the number of frames; with more than one every row leads
	// with its frame ([WriteFrameStats]). 0 means 1.
	Frames int
	// Intensity adds the columns sum, mean, min, max, std and the
	// intensity-weighted centroid wcx, wcy[, wcz] (and wpx, wpy, wpz
	// through Affine).
	Intensity bool
	// Shape adds the column surface_mm2, or perimeter when Perimeter is
	// set (a raster of one plane), and eq_diameter.
	Shape, Perimeter bool
}

// WriteStats writes the statistics of a labeling's components as CSV or
// JSON. format is "csv" (a header line, then
// label,value,size,x0,y0[,z0],x1,y1[,z1],cx,cy[,cz]) or "json" (an array of
// objects with label, value, size, bbox [x0,y0(,z0),x1,y1(,z1)] and
// centroid [x,y(,z)]); format may carry a leading dot. Bounding boxes are
// inclusive; z appears for 3D rasters only. Values of integer samples (and
// packed RGB) are written as integers, every digit kept; those of float
// samples as the shortest decimal that reads back as the same float32 or
// float64 (see [imagegraph.SampleValue.AppendText]).
func WriteStats(w io.Writer, stats []imagegraph.ComponentStats, format string, is3D bool) error {
	return WriteStatsTable(w, StatsOptions{Format: format, Is3D: is3D}, func(int) ([]imagegraph.ComponentStats, []Measures, error) {
		return stats, nil, nil
	})
}

// WriteVolumeStats writes the statistics of a volume's components. It is
// [WriteStats] with two more measures through the voxel-to-physical affine:
// the physical volume (size x |det| of the affine's 3x3 part, in mm³ for
// NIfTI and NRRD) and the physical centroid (the affine applied to the
// voxel centroid). CSV columns volume_mm3,px,py,pz follow the voxel ones;
// JSON adds volume_mm3 and centroid_mm.
func WriteVolumeStats(w io.Writer, stats []imagegraph.ComponentStats, format string, affine [3][4]float64) error {
	return WriteFrameStats(w, 1, func(int) ([]imagegraph.ComponentStats, error) { return stats, nil }, format, affine)
}

// WriteFrameStats writes the statistics of the components of every frame. It
// is [WriteVolumeStats] for a volume of several frames (time points,
// Volume.Frames): it writes the statistics that stats(t) returns for every
// frame t from 0 to frames-1, in order, holding one frame's at a time. With
// more than one frame every row leads with its frame's index, counted from 0
// as NIfTI's t: CSV gains a first column "frame", each JSON object a first
// field "frame". With one frame it writes what [WriteVolumeStats] does. An
// error from stats stops the writing and is returned.
func WriteFrameStats(w io.Writer, frames int, stats func(t int) ([]imagegraph.ComponentStats, error), format string, affine [3][4]float64) error {
	if frames < 1 {
		return fmt.Errorf("stats: %d frames", frames)
	}
	o := StatsOptions{Format: format, Is3D: true, Affine: &affine, Frames: frames}
	return WriteStatsTable(w, o, func(t int) ([]imagegraph.ComponentStats, []Measures, error) {
		s, err := stats(t)
		return s, nil, err
	})
}

// WriteStatsTable writes statistics as o says: [WriteStats] and
// [WriteFrameStats] with the measures that o asks for added. rows(t)
// returns frame t's statistics and, when o asks for intensity or shape, one
// [Measures] per component. CSV adds, after the other columns,
// sum,mean,min,max,std,wcx,wcy[,wcz][,wpx,wpy,wpz] and
// surface_mm2|perimeter,eq_diameter; JSON the fields sum, mean, min, max,
// std, wcentroid, wcentroid_mm, surface_mm2 or perimeter, and eq_diameter.
// These are written as the shortest decimals that read back as the same
// float64 (NaN as NaN in CSV, null in JSON).
func WriteStatsTable(w io.Writer, o StatsOptions, rows func(t int) ([]imagegraph.ComponentStats, []Measures, error)) error {
	frames := max(o.Frames, 1)
	sw, err := newStatsWriter(w, o.Format, o.Is3D, o.Affine, frames > 1)
	if err != nil {
		return err
	}
	sw.intensity, sw.shape, sw.perimeter = o.Intensity, o.Shape, o.Perimeter
	return sw.writeAll(frames, rows)
}

// statsWriter writes statistics rows as CSV or JSON, frame by frame.
type statsWriter struct {
	w      io.Writer
	json   bool
	dims   int            // 2 or 3
	affine *[3][4]float64 // nil: no physical measures
	voxel  float64        // |det| of the affine's 3x3 part
	frame  bool           // rows lead with their frame index
	rows   int            // rows written
	line   []byte         // the row being built
	// intensity and shape add their measures; perimeter names the shape
	// a perimeter.
	intensity, shape, perimeter bool
}

// newStatsWriter checks the format and returns a writer of its rows.
func newStatsWriter(w io.Writer, format string, is3D bool, affine *[3][4]float64, frame bool) (*statsWriter, error) {
	sw := &statsWriter{w: w, dims: 2, affine: affine, frame: frame}
	switch format {
	case "json", ".json":
		sw.json = true
	case "csv", ".csv":
	default:
		return nil, fmt.Errorf("stats: unknown format %q (want csv or json)", format)
	}
	if is3D {
		sw.dims = 3
	}
	if affine != nil {
		sw.voxel = math.Abs(det3(affine))
	}
	return sw, nil
}

// writeAll writes the header, the rows of frames frames as stats returns
// them, and the end.
func (sw *statsWriter) writeAll(frames int, stats func(t int) ([]imagegraph.ComponentStats, []Measures, error)) error {
	if err := sw.header(); err != nil {
		return err
	}
	for t := range frames {
		s, m, err := stats(t)
		if err != nil {
			return err
		}
		if (sw.intensity || sw.shape) && len(m) != len(s) {
			return fmt.Errorf("stats: %d measures for %d components", len(m), len(s))
		}
		if err := sw.frameRows(t, s, m); err != nil {
			return err
		}
	}
	return sw.end()
}

// header writes the CSV header line; JSON has none.
func (sw *statsWriter) header() error {
	if sw.json {
		return nil
	}
	header := "label,value,size,x0,y0,x1,y1,cx,cy"
	if sw.dims == 3 {
		header = "label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz"
	}
	if sw.frame {
		header = "frame," + header
	}
	if sw.affine != nil {
		header += ",volume_mm3,px,py,pz"
	}
	if sw.intensity {
		header += ",sum,mean,min,max,std,wcx,wcy"
		if sw.dims == 3 {
			header += ",wcz"
		}
		if sw.affine != nil {
			header += ",wpx,wpy,wpz"
		}
	}
	if sw.shape {
		header += map[bool]string{false: ",surface_mm2", true: ",perimeter"}[sw.perimeter] + ",eq_diameter"
	}
	return sw.write([]byte(header + "\n"))
}

// frameRows writes the rows of frame t.
func (sw *statsWriter) frameRows(t int, stats []imagegraph.ComponentStats, measures []Measures) error {
	for i, s := range stats {
		var m *Measures
		if sw.intensity || sw.shape {
			m = &measures[i]
		}
		var err error
		if sw.json {
			err = sw.jsonRow(t, s, m)
		} else {
			err = sw.csvRow(t, s, m)
		}
		if err != nil {
			return err
		}
		sw.rows++
	}
	return nil
}

// end closes the JSON array.
func (sw *statsWriter) end() error {
	switch {
	case !sw.json:
		return nil
	case sw.rows == 0:
		return sw.write([]byte("[]\n"))
	}
	return sw.write([]byte("\n]\n"))
}

// physical returns a component's physical volume and centroid.
func (sw *statsWriter) physical(s imagegraph.ComponentStats) (vol float64, c [3]float64) {
	return float64(s.Size) * sw.voxel, sw.point(s.Centroid)
}

// point returns the physical position of voxel coordinates p.
func (sw *statsWriter) point(p [3]float64) (c [3]float64) {
	a := sw.affine
	for r := range 3 {
		c[r] = a[r][3]
		for k := range 3 {
			c[r] += a[r][k] * p[k]
		}
	}
	return c
}

// measureValues returns the measures of m that the writer adds, in the
// order of their columns.
func (sw *statsWriter) measureValues(m *Measures) []float64 {
	var v []float64
	if sw.intensity {
		v = append(v, m.Sum, m.Mean, m.Min, m.Max, m.Std)
		v = append(v, m.WCentroid[:sw.dims]...)
		if sw.affine != nil {
			p := sw.point(m.WCentroid)
			v = append(v, p[:]...)
		}
	}
	if sw.shape {
		v = append(v, m.Surface, m.EqDiameter)
	}
	return v
}

// csvRow writes one CSV row.
func (sw *statsWriter) csvRow(t int, s imagegraph.ComponentStats, m *Measures) error {
	line := sw.line[:0]
	if sw.frame {
		line = strconv.AppendInt(line, int64(t), 10)
		line = append(line, ',')
	}
	line = strconv.AppendUint(line, uint64(s.Label), 10)
	line = append(line, ',')
	line = appendValue(line, s)
	line = append(line, ',')
	line = strconv.AppendInt(line, s.Size, 10)
	for _, v := range append(append([]int{}, s.Min[:sw.dims]...), s.Max[:sw.dims]...) {
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(v), 10)
	}
	for _, c := range s.Centroid[:sw.dims] {
		line = append(line, ',')
		line = strconv.AppendFloat(line, c, 'f', 3, 64)
	}
	if sw.affine != nil {
		vol, c := sw.physical(s)
		for _, v := range []float64{vol, c[0], c[1], c[2]} {
			line = append(line, ',')
			line = strconv.AppendFloat(line, v, 'f', 3, 64)
		}
	}
	if m != nil {
		for _, v := range sw.measureValues(m) {
			line = append(line, ',')
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
		}
	}
	sw.line = append(line, '\n')
	return sw.write(sw.line)
}

// jsonRow writes one JSON object, laid out as json.Encoder with the
// indent " " lays out the elements of an array.
func (sw *statsWriter) jsonRow(t int, s imagegraph.ComponentStats, m *Measures) error {
	rec := statsRecord{Label: s.Label, Value: s.Value, Size: s.Size,
		BBox:     append(append([]int{}, s.Min[:sw.dims]...), s.Max[:sw.dims]...),
		Centroid: append([]float64{}, s.Centroid[:sw.dims]...)}
	if s.Sample.Kind != 0 {
		rec.Value = s.Sample
	}
	if sw.frame {
		rec.Frame = &t
	}
	if sw.affine != nil {
		vol, c := sw.physical(s)
		rec.VolumeMM3, rec.CentroidMM = &vol, c[:]
	}
	if m != nil {
		sw.jsonMeasures(&rec, m)
	}
	b, err := json.MarshalIndent(rec, " ", " ")
	if err != nil {
		return fmt.Errorf("stats: %w", err)
	}
	sep := ",\n "
	if sw.rows == 0 {
		sep = "[\n "
	}
	sw.line = append(append(sw.line[:0], sep...), b...)
	return sw.write(sw.line)
}

// jsonMeasures sets the fields of the measures the writer adds.
func (sw *statsWriter) jsonMeasures(rec *statsRecord, m *Measures) {
	f := func(v float64) *jsonFloat { j := jsonFloat(v); return &j }
	list := func(v []float64) []jsonFloat {
		out := make([]jsonFloat, len(v))
		for i, x := range v {
			out[i] = jsonFloat(x)
		}
		return out
	}
	if sw.intensity {
		rec.Sum, rec.Mean, rec.Min, rec.Max, rec.Std = f(m.Sum), f(m.Mean), f(m.Min), f(m.Max), f(m.Std)
		rec.WCentroid = list(m.WCentroid[:sw.dims])
		if sw.affine != nil {
			p := sw.point(m.WCentroid)
			rec.WCentroidMM = list(p[:])
		}
	}
	if sw.shape {
		if sw.perimeter {
			rec.Perimeter = f(m.Surface)
		} else {
			rec.SurfaceMM2 = f(m.Surface)
		}
		rec.EqDiameter = f(m.EqDiameter)
	}
}

// jsonFloat is a float64 that JSON writes as null when it is NaN or
// infinite, which JSON numbers cannot be.
type jsonFloat float64

// MarshalJSON writes the float as encoding/json does, or null.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// write writes b, wrapping an error.
func (sw *statsWriter) write(b []byte) error {
	if _, err := sw.w.Write(b); err != nil {
		return fmt.Errorf("stats: %w", err)
	}
	return nil
}

// appendValue appends a component's sample value: its Sample, or Value
// when Sample is the zero SampleValue.
func appendValue(b []byte, s imagegraph.ComponentStats) []byte {
	if out, err := s.Sample.AppendText(b); err == nil {
		return out
	}
	return strconv.AppendFloat(b, s.Value, 'g', -1, 64)
}

// det3 returns the determinant of the affine's 3x3 part.
func det3(a *[3][4]float64) float64 {
	return a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) -
		a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) +
		a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
}
