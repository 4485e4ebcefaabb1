package imagegraph

import (
	"fmt"
	"math"
)

// ComponentStats describes one component of a labeling.
type ComponentStats struct {
	// Label is the component's label.
	Label uint32
	// Value is the sample value of the component's first pixel (for
	// multilabel rules, the value all its pixels share), as a float64:
	// 64-bit integers beyond 2^53 are rounded.
	Value float64
	// Sample is the same sample exactly. The statistics writers print it
	// (integers as integers), or Value when it is the zero SampleValue.
	Sample SampleValue
	// Size is the number of pixels.
	Size int64
	// Min and Max are the inclusive bounding box, as x, y, z.
	Min, Max [3]int
	// Centroid is the mean pixel position, as x, y, z.
	Centroid [3]float64
}

// Statistics returns the statistics of every component of l, in label
// order. It reads the values from r, the raster l labels.
func Statistics(l *Labels, r *Raster) ([]ComponentStats, error) {
	if r.Width != l.Width || r.Height != l.Height || r.Depth != l.Depth || len(l.Data) != r.Len() {
		return nil, fmt.Errorf("imagegraph: labels %dx%dx%d do not match raster %dx%dx%d",
			l.Width, l.Height, l.Depth, r.Width, r.Height, r.Depth)
	}
	stats := make([]ComponentStats, l.Count)
	sums := make([][3]int64, l.Count)
	for i := range stats {
		stats[i].Label = uint32(i + 1)
		stats[i].Min = [3]int{math.MaxInt, math.MaxInt, math.MaxInt}
		stats[i].Max = [3]int{-1, -1, -1}
	}
	w, h := l.Width, l.Height
	i := 0
	for z := range l.Depth {
		for y := range h {
			for x := range w {
				lab := l.Data[i]
				if lab != 0 {
					if int(lab) > l.Count {
						return nil, fmt.Errorf("imagegraph: label %d above the count %d", lab, l.Count)
					}
					s := &stats[lab-1]
					if s.Size == 0 {
						s.Sample = r.SampleAt(i)
						s.Value = s.Sample.Float()
					}
					s.Size++
					p := [3]int{x, y, z}
					for a := range 3 {
						s.Min[a] = min(s.Min[a], p[a])
						s.Max[a] = max(s.Max[a], p[a])
						sums[lab-1][a] += int64(p[a])
					}
				}
				i++
			}
		}
	}
	for k := range stats {
		if n := stats[k].Size; n > 0 {
			for a := range 3 {
				stats[k].Centroid[a] = float64(sums[k][a]) / float64(n)
			}
		}
	}
	return stats, nil
}
