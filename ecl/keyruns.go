package ecl

// KeyRun is a run of a row: pixels [Start, End) that all hold the nonzero
// key Key.
type KeyRun[K GridKey] struct {
	Start, End int32
	Key        K
}

// RunRows produces a grid's rows as runs of equal keys: key 0 is
// background, and two neighbouring pixels are joined when their keys are
// equal and nonzero. Row r is y + z*Height. It must be safe for concurrent
// use on different rows.
type RunRows[K GridKey] interface {
	// AppendRuns appends to dst the maximal runs of equal nonzero keys of
	// row, in column order (two runs that meet hold different keys), and
	// returns it.
	AppendRuns(row int, dst []KeyRun[K]) []KeyRun[K]
}

// LabelRuns labels a grid given as runs of equal keys (the multilabel
// rule: neighbours join when their keys are equal and nonzero) at any
// connectivity: 2D 4 or 8, 3D 6, 18 or 26. It writes 0 for background and
// 1..N by first occurrence into dst (x fastest) and returns N; the labels
// equal LabelGrid's on the same keys, for every thread count.
//
// It is ECL-CC on the runs: every run is one vertex, numbered in memory
// order, so the smallest vertex of a component holds its first pixel. Each
// run is hooked to the runs of equal key that the stencil reaches in the
// row before and, in 3D, in the rows y-1, y and y+1 of the plane before,
// found by walking the sorted runs of those rows. As in LabelBinary, the
// runs' parents live inside dst, the first pass links and the second
// numbers the roots and writes every pixel's label from its run; parallel
// bands of whole planes (rows in 2D) are merged at their borders.
func LabelRuns[K GridKey](shape GridShape, connectivity int, src RunRows[K], dst []uint32, threads int) (int, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, err
	}
	l := &runLabeler[K]{width: shape.Width, src: src, labels: dst}
	l.layer, l.layers = layering(shape)
	l.same, l.below = layerSlack(shape, connectivity)
	return runBandLabeler(l, layerBands(l.layers, l.layer, threads), dst, shape.Width), nil
}

// runLabeler holds one LabelRuns run. Until the labeling pass, each band's
// part of labels holds the parents (slot index+1) of its runs' slots, as
// for rowLabeler.
type runLabeler[K GridKey] struct {
	width         int
	layer, layers int
	same          int32
	below         [3]int32
	src           RunRows[K]
	labels        []uint32
}

// runLayer holds the runs of a layer's rows: row y's are
// runs[rowStart[y]:rowStart[y+1]], and runs[i] has slot first+i.
type runLayer[K GridKey] struct {
	runs     []KeyRun[K]
	rowStart []int
	first    uint32
}

func (l *runLabeler[K]) newLayer() *runLayer[K] {
	return &runLayer[K]{rowStart: make([]int, l.layer+1)}
}

// row returns the runs of row y and the slot of the first.
func (p *runLayer[K]) row(y int) ([]KeyRun[K], uint32) {
	lo := p.rowStart[y]
	return p.runs[lo:p.rowStart[y+1]], p.first + uint32(lo)
}

// loadRow appends the runs of row y of layer z (all earlier rows of the
// layer must be loaded).
func (l *runLabeler[K]) loadRow(p *runLayer[K], z, y int) {
	if y == 0 {
		p.runs = p.runs[:0]
	}
	p.runs = l.src.AppendRuns(z*l.layer+y, p.runs)
	p.rowStart[y+1] = len(p.runs)
}

// keyRef is a row a new row is linked against: its runs, the slot of the
// first, how far diagonally contact reaches (0 or 1), and a cursor.
type keyRef[K GridKey] struct {
	runs  []KeyRun[K]
	first uint32
	slack int32
	next  int
}

// rowRefs returns the rows that row y of cur touches: row y-1 of cur when
// same is set, rows y-1, y and y+1 of prev when prev is not nil.
func (l *runLabeler[K]) rowRefs(refs []keyRef[K], cur, prev *runLayer[K], y int, same bool) []keyRef[K] {
	refs = refs[:0]
	if same && y > 0 && l.same >= 0 {
		runs, first := cur.row(y - 1)
		refs = append(refs, keyRef[K]{runs: runs, first: first, slack: l.same})
	}
	if prev != nil {
		for dy := -1; dy <= 1; dy++ {
			if s := l.below[dy+1]; s >= 0 && y+dy >= 0 && y+dy < l.layer {
				runs, first := prev.row(y + dy)
				refs = append(refs, keyRef[K]{runs: runs, first: first, slack: s})
			}
		}
	}
	return refs
}

// forContacts calls join(slot of run, slot of touching run) for every run
// of cur (the first's slot is first) and every run of equal key among refs
// that it touches.
func forContacts[K GridKey](cur []KeyRun[K], first uint32, refs []keyRef[K], join func(r, u uint32)) {
	for k, r := range cur {
		for i := range refs {
			ref := &refs[i]
			runs := ref.runs
			j := ref.next
			for j < len(runs) && runs[j].End+ref.slack <= r.Start {
				j++
			}
			ref.next = j
			for ; j < len(runs) && runs[j].Start < r.End+ref.slack; j++ {
				if runs[j].Key == r.Key {
					join(first+uint32(k), ref.first+uint32(j))
				}
			}
		}
	}
}

// linkRow makes every run of cur (slots from first) a root and hooks it
// to the runs of equal key it touches among refs, with path halving. It
// returns the number of roots hooked away.
func linkRow[K GridKey](labels []uint32, cur []KeyRun[K], first uint32, refs []keyRef[K]) int {
	hooks := 0
	for k, r := range cur {
		s := first + uint32(k)
		root := s
		labels[s-1] = s
		for i := range refs {
			ref := &refs[i]
			runs := ref.runs
			j := ref.next
			for j < len(runs) && runs[j].End+ref.slack <= r.Start {
				j++
			}
			ref.next = j
			for ; j < len(runs) && runs[j].Start < r.End+ref.slack; j++ {
				if runs[j].Key != r.Key {
					continue
				}
				ru := find(labels, ref.first+uint32(j))
				switch {
				case ru < root:
					labels[root-1] = ru
					root = ru
					hooks++
				case ru > root:
					labels[ru-1] = root
					hooks++
				}
			}
		}
	}
	return hooks
}

// linkBand is the first pass over a band: it gives every run a slot,
// starting at the band's first pixel, hooks the runs that touch and moves
// the slots to the end of the band's pixels (see gridBand.moveSlots; a row
// has no more runs than pixels).
func (l *runLabeler[K]) linkBand(b *gridBand) {
	labels := l.labels
	cur, prev := l.newLayer(), l.newLayer()
	refs := make([]keyRef[K], 0, 4)
	start := b.first * l.width
	next := uint32(start) + 1
	hooks := 0
	z0 := b.first / l.layer
	for z := z0; z < b.end/l.layer; z++ {
		var below *runLayer[K]
		if z > z0 {
			below = prev
		}
		cur.first = next
		for y := range l.layer {
			l.loadRow(cur, z, y)
			runs, first := cur.row(y)
			refs = l.rowRefs(refs, cur, below, y, true)
			hooks += linkRow(labels, runs, first, refs)
		}
		next += uint32(len(cur.runs))
		cur, prev = prev, cur
	}
	b.moveSlots(labels, l.width, int(next-1)-start, hooks)
}

// mergeBorder joins the first layer of band b with the last layer of band
// b-1.
func (l *runLabeler[K]) mergeBorder(bands []gridBand, b int) {
	cur, prev := l.newLayer(), l.newLayer()
	z := bands[b].first / l.layer
	for y := range l.layer {
		l.loadRow(cur, z, y)
		l.loadRow(prev, z-1, y)
	}
	cur.first = uint32(bands[b].slots) + 1
	prev.first = uint32(bands[b-1].slots+bands[b-1].runs-len(prev.runs)) + 1
	var refs []keyRef[K]
	join := func(r, u uint32) {
		if dead := hook(l.labels, findRoot(l.labels, r), findRoot(l.labels, u)); dead != 0 {
			owner := bandOf(bands, int(dead-1)/l.width)
			owner.roots--
			owner.hooked = append(owner.hooked, dead)
		}
	}
	for y := range l.layer {
		runs, first := cur.row(y)
		refs = l.rowRefs(refs, cur, prev, y, false)
		forContacts(runs, first, refs, join)
	}
}

// labelBand is the second pass: it numbers the band's roots in slot
// order, gives every slot its root's label and writes every pixel's label,
// a row at a time. A row's pixels only overwrite slots of that row or
// earlier ones, and its runs' labels are copied before it is written.
func (l *runLabeler[K]) labelBand(b *gridBand, cross *crossBandLabels) {
	w := l.width
	labels := l.labels
	labelSlots(labels, b, cross)
	var runs []KeyRun[K]
	runLabels := make([]uint32, w)
	slot := b.slots
	for row := b.first; row < b.end; row++ {
		runs = l.src.AppendRuns(row, runs[:0])
		own := runLabels[:len(runs)]
		copy(own, labels[slot:slot+len(runs)])
		slot += len(runs)
		dst := labels[row*w : (row+1)*w]
		var pending uint32
		from := int32(0)
		for k, r := range runs {
			label := own[k]
			pending |= label
			clear32(dst[from:r.Start])
			fill32(dst[r.Start:r.End], label)
			from = r.End
		}
		clear32(dst[from:])
		if pending&pendingFlag != 0 {
			b.markPending(row)
		}
	}
}

// fill32 sets every element of s to v.
func fill32(s []uint32, v uint32) {
	for len(s) >= 8 {
		t := s[:8:8]
		t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = v, v, v, v, v, v, v, v
		s = s[8:]
	}
	for i := range s {
		s[i] = v
	}
}

// clear32 sets every element of s to 0.
func clear32(s []uint32) {
	if len(s) > 32 {
		clear(s)
		return
	}
	for i := range s {
		s[i] = 0
	}
}
