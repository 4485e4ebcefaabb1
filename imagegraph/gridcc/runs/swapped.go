package runs

import (
	"errors"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// LabelRunsSwapped is [LabelRuns] for a volume served with x and y swapped
// in every plane: row x + z*Width of the rows that src returns holds the
// runs of the voxels (x, 0..Height-1, z), along y. src returns a reader of
// those rows for one goroutine, which may keep planes it has read. It writes dst as LabelRuns does on the volume
// itself: x fastest, 0 for background and 1..N by first occurrence in that
// order, for every thread count. Where runs along y are much longer than
// along x (a label map whose finest axis is y), it costs less.
//
// The stencils are symmetric in x and y, so the swapped volume has the
// same components. It is labeled as it is served; then every plane is
// swapped back and the labels renumbered. A label numbers components in
// order of their first plane, in both orders, so the labels that first
// occur in a plane are a range that only permutes within itself.
func LabelRunsSwapped[K grid.GridKey](shape grid.GridShape, connectivity int, src func() grid.RunRows[K], dst []uint32, threads int) (int, error) {
	if err := band.Validate(shape.Width, shape.Height, shape.Depth, connectivity, dst); err != nil {
		return 0, err
	}
	if shape.Depth < 2 {
		return 0, errors.New("gridcc: LabelRunsSwapped labels volumes, not images")
	}
	swapped := grid.GridShape{Width: shape.Height, Height: shape.Width, Depth: shape.Depth}
	l := newRunLabeler[K](swapped, connectivity, nil, dst)
	l.readers = src
	bands := band.Layers(l.layers, l.layer, threads)
	n := band.RunLabeler(l, bands, dst, swapped.Width)
	order := make([]uint32, n+1)
	// Band b's planes hold only labels below its first, which earlier
	// bands renumber, and its own, in order of their first plane.
	band.Run(bands, func(b *band.Band) {
		swapBack(dst, shape.Width, shape.Height, b.First/shape.Width, b.End/shape.Width, b.FirstLabel, order, b.First == 0)
	})
	if len(bands) > 1 {
		// A swapped row holds Height voxels.
		band.Run(bands[1:], func(b *band.Band) { renumber(dst[b.First*shape.Height:b.End*shape.Height], order) })
	}
	return n, nil
}

// swapBack swaps x and y back in planes [z0, z1) of labels (w x h planes)
// and gives the labels that first occur there, those from first on, their
// numbers by first occurrence in order, in order. With apply (every label
// of the planes is one of those), it renumbers the planes too.
func swapBack(labels []uint32, w, h, z0, z1 int, first uint32, order []uint32, apply bool) {
	plane := w * h
	buf := make([]uint32, plane)
	next := first
	for z := z0; z < z1; z++ {
		p := labels[z*plane : (z+1)*plane]
		copy(buf, p)
		transpose(p, buf, w, h)
		// Labels at or past lo first occur in this plane: those of
		// earlier planes are all smaller.
		lo := next
		for _, l := range p {
			if l >= lo && order[l] == 0 {
				order[l] = next
				next++
			}
		}
		if apply {
			renumber(p, order)
		}
	}
}

// renumber replaces every label l of labels by order[l].
func renumber(labels []uint32, order []uint32) {
	for i, l := range labels {
		labels[i] = order[l]
	}
}

// transpose writes into dst (h rows of w) the transpose of src (w rows of
// h): dst[y*w+x] = src[x*h+y], in tiles of 8 x 8.
func transpose(dst, src []uint32, w, h int) {
	const t = 8
	dst, src = dst[:w*h], src[:w*h]
	for y0 := 0; y0 < h; y0 += t {
		y1 := min(y0+t, h)
		for x0 := 0; x0 < w; x0 += t {
			x1 := min(x0+t, w)
			for x := x0; x < x1; x++ {
				s := src[x*h+y0 : x*h+y1]
				for i, v := range s {
					dst[(y0+i)*w+x] = v
				}
			}
		}
	}
}
