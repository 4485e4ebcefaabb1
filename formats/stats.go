package formats

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/cclabel/cclabel/imagegraph"
)

// statsRecord is one component in the JSON statistics.
type statsRecord struct {
	Label    uint32    `json:"label"`
	Value    float64   `json:"value"`
	Size     int64     `json:"size"`
	BBox     []int     `json:"bbox"`
	Centroid []float64 `json:"centroid"`
}

// WriteStats writes per-component statistics as "csv" (a header line, then
// label,value,size,x0,y0[,z0],x1,y1[,z1],cx,cy[,cz]) or "json" (an array
// of objects with label, value, size, bbox [x0,y0(,z0),x1,y1(,z1)] and
// centroid [x,y(,z)]); format may carry a leading dot. Bounding boxes are
// inclusive; z appears for 3D rasters only.
func WriteStats(w io.Writer, stats []imagegraph.ComponentStats, format string, is3D bool) error {
	dims := 2
	if is3D {
		dims = 3
	}
	switch format {
	case "json", ".json":
		recs := make([]statsRecord, len(stats))
		for i, s := range stats {
			recs[i] = statsRecord{Label: s.Label, Value: s.Value, Size: s.Size,
				BBox:     append(append([]int{}, s.Min[:dims]...), s.Max[:dims]...),
				Centroid: append([]float64{}, s.Centroid[:dims]...)}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		if err := enc.Encode(recs); err != nil {
			return fmt.Errorf("stats: %w", err)
		}
		return nil
	case "csv", ".csv":
		header := "label,value,size,x0,y0,x1,y1,cx,cy\n"
		if is3D {
			header = "label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz\n"
		}
		if _, err := io.WriteString(w, header); err != nil {
			return fmt.Errorf("stats: %w", err)
		}
		var line []byte
		for _, s := range stats {
			line = strconv.AppendUint(line[:0], uint64(s.Label), 10)
			line = append(line, ',')
			line = strconv.AppendFloat(line, s.Value, 'g', -1, 64)
			line = append(line, ',')
			line = strconv.AppendInt(line, s.Size, 10)
			for _, v := range append(append([]int{}, s.Min[:dims]...), s.Max[:dims]...) {
				line = append(line, ',')
				line = strconv.AppendInt(line, int64(v), 10)
			}
			for _, c := range s.Centroid[:dims] {
				line = append(line, ',')
				line = strconv.AppendFloat(line, c, 'f', 3, 64)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return fmt.Errorf("stats: %w", err)
			}
		}
		return nil
	}
	return fmt.Errorf("stats: unknown format %q (want csv or json)", format)
}
