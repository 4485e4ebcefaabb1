package imagegraph

import (
	"cmp"
	"slices"
)

// Labels is the labeling of a raster: one label per pixel, x fastest.
type Labels struct {
	Width, Height, Depth int
	// Data holds the labels: 0 for background, 1..Count for the
	// components in order of first occurrence.
	Data []uint32
	// Count is the number of components.
	Count int
}

// Filter turns the small components, and all but the largest, into
// background. It keeps the components of at least minSize pixels and,
// when largest > 0, only the largest that many of those (ties go to the
// smaller label). The kept components are numbered again 1..N in order of
// first occurrence, in place.
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
