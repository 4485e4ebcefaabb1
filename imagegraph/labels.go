package imagegraph

import (
	"cmp"
	"slices"
)

// Labels are the result of labeling a raster: one label per pixel, x
// fastest, 0 for background and 1..Count by first occurrence.
type Labels struct {
	Width, Height, Depth int
	Data                 []uint32
	Count                int
}

// Filter keeps only the components with at least minSize pixels and, when
// largest > 0, only the largest that many of those (ties go to the smaller
// label); the others become background. The kept components are numbered
// again 1..N in order of first occurrence. It works in place.
func (l *Labels) Filter(minSize int64, largest int) {
	if minSize <= 1 && largest <= 0 {
		return
	}
	sizes := make([]int64, l.Count+1)
	for _, lab := range l.Data {
		if int(lab) <= l.Count {
			sizes[lab]++
		}
	}
	keep := make([]bool, l.Count+1)
	var kept []uint32
	for lab := 1; lab <= l.Count; lab++ {
		if sizes[lab] >= minSize {
			kept = append(kept, uint32(lab))
		}
	}
	if largest > 0 && len(kept) > largest {
		slices.SortStableFunc(kept, func(a, b uint32) int { return cmp.Compare(sizes[b], sizes[a]) })
		kept = kept[:largest]
	}
	for _, lab := range kept {
		keep[lab] = true
	}
	// Labels already run in first-occurrence order, so numbering the kept
	// ones in label order keeps that order.
	newLabel := make([]uint32, l.Count+1)
	next := uint32(0)
	for lab := 1; lab <= l.Count; lab++ {
		if keep[lab] {
			next++
			newLabel[lab] = next
		}
	}
	for i, lab := range l.Data {
		l.Data[i] = newLabel[lab]
	}
	l.Count = int(next)
}
