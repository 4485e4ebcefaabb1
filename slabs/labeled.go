package slabs

import (
	"fmt"

	"github.com/cclabel/cclabel/imagegraph"
)

// Labeled gives [Join] the slabs of a volume labeled earlier. Such slabs are,
// for instance, the chunks of separate runs.
type Labeled interface {
	// Slabs returns how many slabs there are.
	Slabs() int
	// Ends fills ends, two planes of the volume's width and height, with
	// slab i's first and last planes and labels with their labels (the
	// slab's own, 1..count). k is 1 when the slab is one plane deep, and
	// then only the first plane is filled; otherwise 2.
	Ends(i int, ends *imagegraph.Raster, labels []uint32) (k, count int, err error)
}

// Join joins the slabs src gives, in order, into the whole volume's
// numbering. The seams are labeled by f and joined as [Label] joins its
// slabs, so mapping each slab's labels through the [Relabeling] gives the
// labels of labeling the whole volume at once, bit for bit.
func Join(src Labeled, width, height int, kind imagegraph.SampleKind, f LabelFunc) (*Relabeling, error) {
	j, err := newJoiner(width, height, 0, f)
	if err != nil {
		return nil, err
	}
	ends, err := NewPlanes(width, height, 2, kind)
	if err != nil {
		return nil, err
	}
	plane := width * height
	labels := make([]uint32, 2*plane)
	for i := range src.Slabs() {
		k, count, err := src.Ends(i, ends, labels)
		if err != nil {
			return nil, err
		}
		if k != 1 && k != 2 {
			return nil, fmt.Errorf("slabs: slab %d has %d end planes", i, k)
		}
		r, err := Planes(ends, 0, k)
		if err != nil {
			return nil, err
		}
		if err := j.Add(r, labels[:k*plane], count); err != nil {
			return nil, err
		}
	}
	return j.Finish(), nil
}
