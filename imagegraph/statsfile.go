package imagegraph

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// statsRecord is one component in the JSON statistics.
type statsRecord struct {
	Label    uint32    `json:"label"`
	Value    float64   `json:"value"`
	Size     int64     `json:"size"`
	BBox     []int     `json:"bbox"`
	Centroid []float64 `json:"centroid"`
	// Physical units, for volumes with geometry.
	VolumeMM3  *float64  `json:"volume_mm3,omitempty"`
	CentroidMM []float64 `json:"centroid_mm,omitempty"`
}

// WriteStats writes per-component statistics as "csv" (a header line, then
// label,value,size,x0,y0[,z0],x1,y1[,z1],cx,cy[,cz]) or "json" (an array
// of objects with label, value, size, bbox [x0,y0(,z0),x1,y1(,z1)] and
// centroid [x,y(,z)]); format may carry a leading dot. Bounding boxes are
// inclusive; z appears for 3D rasters only.
func WriteStats(w io.Writer, stats []ComponentStats, format string, is3D bool) error {
	return writeStats(w, stats, format, is3D, nil)
}

// WriteVolumeStats is WriteStats for volumes, with two more measures
// through the voxel-to-physical affine: the physical volume
// (size x |det| of the affine's 3x3 part, in mm³ for NIfTI and NRRD) and
// the physical centroid (the affine applied to the voxel centroid). CSV
// columns volume_mm3,px,py,pz follow the voxel ones; JSON adds volume_mm3
// and centroid_mm.
func WriteVolumeStats(w io.Writer, stats []ComponentStats, format string, affine [3][4]float64) error {
	return writeStats(w, stats, format, true, &affine)
}

// writeStats implements WriteStats and WriteVolumeStats.
func writeStats(w io.Writer, stats []ComponentStats, format string, is3D bool, affine *[3][4]float64) error {
	dims := 2
	if is3D {
		dims = 3
	}
	voxel := 0.0
	if affine != nil {
		voxel = math.Abs(det3(affine))
	}
	physical := func(s ComponentStats) (vol float64, c [3]float64) {
		for r := range 3 {
			c[r] = affine[r][3]
			for k := range 3 {
				c[r] += affine[r][k] * s.Centroid[k]
			}
		}
		return float64(s.Size) * voxel, c
	}
	switch format {
	case "json", ".json":
		recs := make([]statsRecord, len(stats))
		for i, s := range stats {
			recs[i] = statsRecord{Label: s.Label, Value: s.Value, Size: s.Size,
				BBox:     append(append([]int{}, s.Min[:dims]...), s.Max[:dims]...),
				Centroid: append([]float64{}, s.Centroid[:dims]...)}
			if affine != nil {
				vol, c := physical(s)
				recs[i].VolumeMM3, recs[i].CentroidMM = &vol, c[:]
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		if err := enc.Encode(recs); err != nil {
			return fmt.Errorf("stats: %w", err)
		}
		return nil
	case "csv", ".csv":
		header := "label,value,size,x0,y0,x1,y1,cx,cy"
		if is3D {
			header = "label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz"
		}
		if affine != nil {
			header += ",volume_mm3,px,py,pz"
		}
		if _, err := io.WriteString(w, header+"\n"); err != nil {
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
			if affine != nil {
				vol, c := physical(s)
				for _, v := range []float64{vol, c[0], c[1], c[2]} {
					line = append(line, ',')
					line = strconv.AppendFloat(line, v, 'f', 3, 64)
				}
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

// det3 returns the determinant of the affine's 3x3 part.
func det3(a *[3][4]float64) float64 {
	return a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) -
		a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) +
		a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
}
