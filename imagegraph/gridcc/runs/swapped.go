package runs

import (
	"errors"
	"slices"

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
// same components. It is linked as it is served. A label numbers
// components in order of their first plane in both orders, so the
// components whose first voxel lies in a plane hold a range of labels that
// only permutes within itself: their runs there tell their order (by the
// first voxel of each in y, then x), and the second pass writes every
// plane's labels, in that order, swapped back.
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
	s := &swappedLabeler[K]{runLabeler: l, width: shape.Width, height: shape.Height}
	return band.RunLabeler(s, band.Layers(l.layers, l.layer, threads), dst, swapped.Width), nil
}

// swappedLabeler is the labeler of LabelRunsSwapped: runLabeler's on the
// swapped rows (width rows of height voxels a plane), numbering the slots
// and writing the labels in the volume's order.
type swappedLabeler[K grid.GridKey] struct {
	*runLabeler[K]
	width, height int // of the volume's planes
	// order maps the labels numbered in the swapped order to the
	// volume's.
	order []uint32
}

// NumberBands labels the slots of every band, then gives each label its
// place in the volume's order (band.Numberer).
func (s *swappedLabeler[K]) NumberBands(bands []band.Band, cross *band.CrossLabels) {
	last := &bands[len(bands)-1]
	s.order = make([]uint32, int(last.FirstLabel)+last.Roots)
	band.Run(bands, func(b *band.Band) {
		band.LabelSlots(s.labels, b, cross)
		s.orderBand(b)
	})
}

// orderBand fills order for the labels that band b numbered: plane by
// plane, those first met in the plane's slots (a range from the plane's
// first new label on, as the slots number them), ordered by the first
// voxel of each in the volume's order, that is by the first row (a run's
// start) and then column (its swapped row) of its runs in the plane.
func (s *swappedLabeler[K]) orderBand(b *band.Band) {
	w, h := s.width, s.height
	labels := s.labels
	words := edgeWords(h)
	starts, ends := make([]int32, h), make([]int32, h)
	var first []uint32 // the first voxel of each new label of the plane
	var keys []uint64
	slot := b.Slots
	lo := b.FirstLabel
	for row := b.First; row < b.End; row += w {
		hi := lo
		first = first[:0]
		for x := range w {
			i := row + x - b.First
			n := loadEdges(starts, ends, b.Edges[2*i*words:2*(i+1)*words], b.EdgeRuns[i])
			for k, l := range labels[slot : slot+n] {
				if l < lo {
					continue // numbered in an earlier plane
				}
				at := uint32(starts[k])*uint32(w) + uint32(x)
				if l == hi { // slots number labels in order
					first = append(first, at)
					hi++
				} else if j := l - lo; at < first[j] {
					first[j] = at
				}
			}
			slot += n
		}
		if slices.IsSorted(first) {
			for l := lo; l < hi; l++ {
				s.order[l] = l
			}
		} else {
			keys = keys[:0]
			for j, at := range first {
				keys = append(keys, uint64(at)<<32|uint64(j))
			}
			slices.Sort(keys)
			for rank, k := range keys {
				s.order[lo+uint32(k)] = lo + uint32(rank)
			}
		}
		lo = hi
	}
}

// LabelBand is the second pass: once every band's slots hold labels
// (NumberBands), it writes each plane's labels, mapped by order, into a
// plane of swapped rows, then swaps that plane back into place. A plane's
// pixels overwrite only slots of that plane's runs or earlier ones (a
// plane has no more runs than voxels, see band.Band.MoveSlots), read
// before.
func (s *swappedLabeler[K]) LabelBand(b *band.Band, _ *band.CrossLabels) {
	w, h := s.width, s.height
	plane := w * h
	labels, order := s.labels, s.order
	buf := make([]uint32, plane)
	runLabels := make([]uint32, h)
	starts, ends := make([]int32, h), make([]int32, h)
	words := edgeWords(h)
	slot := b.Slots
	for row := b.First; row < b.End; row += w {
		for x := range w {
			i := row + x - b.First
			n := loadEdges(starts, ends, b.Edges[2*i*words:2*(i+1)*words], b.EdgeRuns[i])
			own := runLabels[:n]
			for k, l := range labels[slot : slot+n] {
				own[k] = order[l]
			}
			slot += n
			band.WriteRuns(buf[x*h:(x+1)*h], starts[:n], ends[:n], own)
		}
		z := row / w
		transpose(labels[z*plane:(z+1)*plane], buf, w, h)
	}
	band.PutWords(b.Edges)
	b.Edges, b.EdgeRuns = nil, nil
}

// transpose writes into dst (h rows of w) the transpose of src (w rows of
// h): dst[y*w+x] = src[x*h+y]. It writes dst in order, one row at a time:
// the lines of src that a row reads serve the next rows too, and stores
// to several rows at once, a row apart, cost more than the loads.
func transpose(dst, src []uint32, w, h int) {
	dst, src = dst[:w*h], src[:w*h]
	for y := range h {
		row := dst[y*w : (y+1)*w]
		for x := range row {
			row[x] = src[x*h+y]
		}
	}
}
