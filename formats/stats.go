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
	sw, err := newStatsWriter(w, format, is3D, nil, false)
	if err != nil {
		return err
	}
	return sw.writeAll(1, func(int) ([]imagegraph.ComponentStats, error) { return stats, nil })
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
	sw, err := newStatsWriter(w, format, true, &affine, frames > 1)
	if err != nil {
		return err
	}
	return sw.writeAll(frames, stats)
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
func (sw *statsWriter) writeAll(frames int, stats func(t int) ([]imagegraph.ComponentStats, error)) error {
	if err := sw.header(); err != nil {
		return err
	}
	for t := range frames {
		s, err := stats(t)
		if err != nil {
			return err
		}
		if err := sw.frameRows(t, s); err != nil {
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
	return sw.write([]byte(header + "\n"))
}

// frameRows writes the rows of frame t.
func (sw *statsWriter) frameRows(t int, stats []imagegraph.ComponentStats) error {
	for _, s := range stats {
		var err error
		if sw.json {
			err = sw.jsonRow(t, s)
		} else {
			err = sw.csvRow(t, s)
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
	a := sw.affine
	for r := range 3 {
		c[r] = a[r][3]
		for k := range 3 {
			c[r] += a[r][k] * s.Centroid[k]
		}
	}
	return float64(s.Size) * sw.voxel, c
}

// csvRow writes one CSV row.
func (sw *statsWriter) csvRow(t int, s imagegraph.ComponentStats) error {
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
	sw.line = append(line, '\n')
	return sw.write(sw.line)
}

// jsonRow writes one JSON object, laid out as json.Encoder with the
// indent " " lays out the elements of an array.
func (sw *statsWriter) jsonRow(t int, s imagegraph.ComponentStats) error {
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
