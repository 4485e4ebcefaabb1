package runs

import (
	"slices"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// LabelRuns labels a grid given as runs of equal keys, at any
// connectivity. Neighbours join when their keys are equal and nonzero (the
// multilabel rule); connectivity is 4 or 8 in 2D, 6, 18 or 26 in 3D. It
// writes 0 for background and 1..N by first occurrence into dst (x
// fastest) and returns N; the labels equal [LabelGrid]'s on the same keys,
// for every thread count.
//
// It is ECL-CC on the runs: every run is one vertex, numbered in memory
// order, so the smallest vertex of a component holds its first pixel. Each
// run is hooked to the runs of equal key that the stencil reaches in the
// row before and, in 3D, in the rows y-1, y and y+1 of the plane before,
// found by walking the sorted runs of those rows. In volumes at 18 and 26,
// a run that the row above already joined to the component holding every
// run of its key in the plane before (a table of each key's root per
// plane tells) needs no look at that plane: in label maps, most runs.
//
// As in grid.LabelBinary, the runs' parents live inside dst; the first pass
// links and keeps each row's run edges (16-bit bounds of touching runs or
// column pairs where they fit in two bits a pixel, else those bits; see
// keepEdges), the second numbers the roots and writes every pixel's label
// from its run; parallel bands of whole planes (rows in 2D) are merged at
// their borders.
func LabelRuns[K grid.GridKey](shape grid.GridShape, connectivity int, src grid.RunRows[K], dst []uint32, threads int) (int, error) {
	if err := band.Validate(shape.Width, shape.Height, shape.Depth, connectivity, dst); err != nil {
		return 0, err
	}
	l := newRunLabeler(shape, connectivity, src, dst)
	if k, ok := src.(keyRows32); ok && l.layer > 1 && l.same == 1 && l.below == [3]int32{1, 1, 1} && k.KeyRow32(0) != nil {
		l.keys = k
	}
	return band.RunLabeler(l, band.Layers(l.layers, l.layer, threads), dst, shape.Width), nil
}

// newRunLabeler returns the LabelRuns labeler of a grid reading src.
func newRunLabeler[K grid.GridKey](shape grid.GridShape, connectivity int, src grid.RunRows[K], dst []uint32) *runLabeler[K] {
	l := &runLabeler[K]{width: shape.Width, src: src, labels: dst}
	l.layer, l.layers = band.Layering(shape.Height, shape.Depth)
	l.same, l.below = band.LayerSlack(connectivity)
	return l
}

// runLabeler holds one LabelRuns run. Until the labeling pass, each band's
// part of labels holds the parents (slot index+1) of its runs' slots, as
// for grid.LabelBinary's row labeler.
type runLabeler[K grid.GridKey] struct {
	width         int
	layer, layers int
	same          int32
	below         [3]int32
	src           grid.RunRows[K]
	// readers, when set, returns a reader of src's rows for one
	// goroutine, which it uses in place of src.
	readers func() grid.RunRows[K]
	// keys, when set, serves the rows' keys, from which a volume at
	// 26-connectivity is linked (linkBandMasks).
	keys   keyRows32
	labels []uint32
}

// reader returns the rows of the grid for one goroutine.
func (l *runLabeler[K]) reader() grid.RunRows[K] {
	if l.readers != nil {
		return l.readers()
	}
	return l.src
}

// runLayer holds the runs of a layer's rows, each row's followed by
// sentinels (linkWindow of them) that start and end past every column: row
// y's runs are runs[rowStart[y]:rowStart[y+1]-linkWindow], and the first
// has slot slot[y].
type runLayer[K grid.GridKey] struct {
	runs     []grid.KeyRun[K]
	rowStart []int
	slot     []uint32
	count    int // runs of the layer, sentinels not counted
	// starts and ranks hold, when the labeler has keys, each row's
	// maskRow.starts and ranks, edgeWords(width) words a row.
	starts []uint64
	ranks  []uint32
}

func (l *runLabeler[K]) newLayer() *runLayer[K] {
	p := &runLayer[K]{rowStart: make([]int, l.layer+1), slot: make([]uint32, l.layer)}
	if l.keys != nil {
		words := edgeWords(l.width)
		p.starts, p.ranks = make([]uint64, l.layer*words), make([]uint32, l.layer*words)
	}
	return p
}

// row returns the runs of row y with the sentinels after them, and the
// slot of the first.
func (p *runLayer[K]) row(y int) ([]grid.KeyRun[K], uint32) {
	return p.runs[p.rowStart[y]:p.rowStart[y+1]], p.slot[y]
}

// loadRow appends the runs of row y of layer z, numbered from next, and a
// sentinel (all earlier rows of the layer must be loaded). It returns the
// slot after the row's last run.
func (l *runLabeler[K]) loadRow(src grid.RunRows[K], p *runLayer[K], z, y int, next uint32) uint32 {
	if y == 0 {
		p.runs = p.runs[:0]
		p.count = 0
	}
	lo := len(p.runs)
	p.runs = src.AppendRuns(z*l.layer+y, p.runs)
	n := len(p.runs) - lo
	if p.starts != nil {
		words := len(p.starts) / len(p.slot)
		markStarts(p.starts[y*words:(y+1)*words], p.ranks[y*words:(y+1)*words], p.runs[lo:])
	}
	for range linkWindow {
		p.runs = append(p.runs, grid.KeyRun[K]{Start: band.SentinelColumn, End: band.SentinelColumn})
	}
	p.rowStart[y+1] = len(p.runs)
	p.slot[y] = next
	p.count += n
	return next + uint32(n)
}

// keyRef is a row a new row is linked against: its runs with their
// sentinel, the slot of the first, how far diagonally contact reaches (0
// or 1), and a cursor.
type keyRef[K grid.GridKey] struct {
	runs  []grid.KeyRun[K]
	first uint32
	slack int32
	next  int
	below bool // a row of the layer before
}

// rowRefs returns the rows that row y of cur touches: row y-1 of cur when
// same is set, rows y-1, y and y+1 of prev when prev is not nil.
func (l *runLabeler[K]) rowRefs(refs *[4]keyRef[K], cur, prev *runLayer[K], y int, same bool) []keyRef[K] {
	n := 0
	if same && y > 0 && l.same >= 0 {
		refs[n].runs, refs[n].first = cur.row(y - 1)
		refs[n].slack, refs[n].next, refs[n].below = l.same, 0, false
		n++
	}
	if prev != nil {
		for dy := -1; dy <= 1; dy++ {
			if s := l.below[dy+1]; s >= 0 && y+dy >= 0 && y+dy < l.layer {
				refs[n].runs, refs[n].first = prev.row(y + dy)
				refs[n].slack, refs[n].next, refs[n].below = s, 0, true
				n++
			}
		}
	}
	return refs[:n]
}

// forContacts calls join(slot of run, slot of touching run) for every run
// of cur (the first's slot is first; no sentinel) and every run of equal
// key among refs that it touches.
func forContacts[K grid.GridKey](cur []grid.KeyRun[K], first uint32, refs []keyRef[K], join func(r, u uint32)) {
	for k, r := range cur {
		for i := range refs {
			ref := &refs[i]
			runs := ref.runs
			j := ref.next
			for runs[j].End+ref.slack <= r.Start {
				j++
			}
			ref.next = j
			for ; runs[j].Start < r.End+ref.slack; j++ {
				if runs[j].Key == r.Key {
					join(first+uint32(k), ref.first+uint32(j))
				}
			}
		}
	}
}

// linkWindow is the number of runs of a row before that refContacts looks
// at without branching, for each run; it takes more only when all of them
// touch the run.
const linkWindow = 3

// refContacts appends to found, as slot pairs (run<<32 | touching run),
// the runs of equal key of ref that every run of cur (slots from first; no
// sentinels) touches, or, when some is not nil, only the runs of cur
// whose indices it lists (in increasing order). The walk along ref branches
// little on the data: the cursor skips up to two runs that end before the
// run without branching, the next linkWindow runs (the sentinels keep them
// in the slice) are candidates, kept when they start before the run ends
// and hold its key.
func refContacts[K grid.GridKey](found []uint64, cur []grid.KeyRun[K], first uint32, ref *keyRef[K], some []int32) []uint64 {
	if some != nil {
		return refContactsOf(found, cur, first, ref, some)
	}
	runs, slack := ref.runs, ref.slack
	n := len(found)
	// Touching pairs of two rows of disjoint runs number at most one per
	// run of both, plus two per run of cur for the diagonals; each window
	// writes linkWindow entries past the last kept.
	buf := slices.Grow(found, 4*len(cur)+len(runs)+linkWindow)
	buf = buf[:cap(buf)]
	base := uint64(first)<<32 | uint64(ref.first)
	j := 0
	for k := range cur {
		r := cur[k]
		lo, hi := r.Start-slack, r.End+slack
		j += int(b2u32(runs[j].End <= lo))
		j += int(b2u32(runs[j].End <= lo))
		for runs[j].End <= lo {
			j++
		}
		n = windowContacts(buf, n, runs, j, hi, r.Key, base+uint64(k)<<32+uint64(j))
	}
	return buf[:n]
}

// refContactsOf is refContacts for the runs of cur listed in some.
func refContactsOf[K grid.GridKey](found []uint64, cur []grid.KeyRun[K], first uint32, ref *keyRef[K], some []int32) []uint64 {
	runs, slack := ref.runs, ref.slack
	n := len(found)
	buf := slices.Grow(found, 4*len(some)+len(runs)+linkWindow)
	buf = buf[:cap(buf)]
	base := uint64(first)<<32 | uint64(ref.first)
	j := 0
	for _, k := range some {
		r := cur[k]
		lo, hi := r.Start-slack, r.End+slack
		for runs[j].End <= lo {
			j++
		}
		n = windowContacts(buf, n, runs, j, hi, r.Key, base+uint64(k)<<32+uint64(j))
	}
	return buf[:n]
}

// windowContacts writes into buf from n on pair, pair+1, ... for the runs
// of runs from j on that start before hi and hold key, and returns the new
// n: the first linkWindow runs without branching, any further ones in
// moreContacts.
func windowContacts[K grid.GridKey](buf []uint64, n int, runs []grid.KeyRun[K], j int, hi int32, key K, pair uint64) int {
	w := runs[j : j+linkWindow : j+linkWindow]
	f := buf[n : n+linkWindow : n+linkWindow]
	f[0] = pair
	m := b2u32(w[0].Start < hi) & b2u32(w[0].Key == key)
	f[m] = pair + 1
	m += b2u32(w[1].Start < hi) & b2u32(w[1].Key == key)
	f[m] = pair + 2
	m += b2u32(w[2].Start < hi) & b2u32(w[2].Key == key)
	n += int(m)
	if w[2].Start < hi {
		n = moreContacts(buf, n, runs, j+linkWindow, hi, key, pair+linkWindow)
	}
	return n
}

// moreContacts is refContacts for runs past the window: it writes pair
// (counting up from the run at j) into buf[n] for each run of runs from j
// on that starts before hi and holds key, and returns the new n.
//
//go:noinline
func moreContacts[K grid.GridKey](buf []uint64, n int, runs []grid.KeyRun[K], j int, hi int32, key K, pair uint64) int {
	for ; runs[j].Start < hi; j++ {
		buf[n] = pair
		n += int(b2u32(runs[j].Key == key))
		pair++
	}
	return n
}

// linkRow makes every run of cur (slots from first; no sentinels) a root
// and hooks it to the runs of equal key it touches among refs, with path
// halving. It returns the number of roots hooked away.
//
// With below (volumes at 18 and 26), only the runs that need it are
// linked with the layer before (see keyRoots.needBelow); scratch keeps
// which runs of the row before did not, and this row's answer.
func linkRow[K grid.GridKey](labels []uint32, cur []grid.KeyRun[K], first uint32, refs []keyRef[K], below *keyRoots[K], scratch *linkScratch) int {
	for k := range cur {
		s := first + uint32(k)
		labels[s-1] = s
	}
	found := scratch.found[:0]
	i := 0
	above := false
	if len(refs) > 0 && !refs[0].below {
		found = refContacts(found, cur, first, &refs[0], nil)
		above = true
		i = 1
	}
	// The runs of cur are fresh roots, and refContacts lists each run's
	// contacts together.
	hooks := band.LinkFreshContacts(labels, found)
	var some []int32
	if below != nil && i < len(refs) {
		if cap(scratch.done) < len(cur) {
			scratch.done = make([]bool, len(cur)+len(cur)/2)
		}
		done := scratch.done[:len(cur)]
		clear(done)
		if above {
			// A run joined to a run of the row above that needed no link
			// with the layer before needs none either: it has its key.
			prevFirst := uint64(refs[0].first)
			for _, c := range found {
				if j := uint32(c) - uint32(prevFirst); int(j) < len(scratch.prevDone) && scratch.prevDone[j] {
					done[uint32(c>>32)-first] = true
				}
			}
		} else {
			// The first row of a layer: no row above to inherit from.
			scratch.prevDone = scratch.prevDone[:0]
		}
		if scratch.some == nil {
			scratch.some = make([]int32, 0, 64) // not nil: nil means every run
		}
		some = below.needBelow(scratch.some[:0], done, labels, cur, first)
		scratch.some = some
		scratch.prevDone, scratch.done = done, scratch.prevDone
	}
	found = found[:0]
	fresh := !above && len(refs) == 1
	for ; i < len(refs); i++ {
		found = refContacts(found, cur, first, &refs[i], some)
	}
	scratch.found = found
	if fresh {
		return hooks + band.LinkFreshContacts(labels, found)
	}
	return hooks + band.LinkContacts(labels, found)
}

// linkScratch is the reusable memory of linkRow.
type linkScratch struct {
	found []uint64
	some  []int32
	// done and prevDone mark the runs of this row and of the row before
	// that need no link with the layer before.
	done, prevDone []bool
}

// b2u32 returns 1 for true and 0 for false.
func b2u32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// LinkBand is the first pass over a band: it gives every run a slot,
// starting at the band's first pixel, hooks the runs that touch and moves
// the slots to the end of the band's pixels (see band.Band.MoveSlots; a row
// has no more runs than pixels).
func (l *runLabeler[K]) LinkBand(b *band.Band) {
	if l32, ok := any(l).(*runLabeler[uint32]); ok && l.keys != nil {
		linkBandMasks(l32, b)
		return
	}
	labels := l.labels
	src := l.reader()
	cur, prev := l.newLayer(), l.newLayer()
	var refs [4]keyRef[K]
	var scratch linkScratch
	var roots keyRoots[K]
	start := b.First * l.width
	next := uint32(start) + 1
	hooks := 0
	words := edgeWords(l.width)
	b.Edges = band.GetWords(2 * words * (b.End - b.First))
	b.EdgeRuns = make([]int32, b.End-b.First)
	z0 := b.First / l.layer
	for z := z0; z < b.End/l.layer; z++ {
		var below *runLayer[K]
		var belowRoots *keyRoots[K]
		if z > z0 {
			below = prev
			// Volumes at 18 and 26 (images have one row a layer; at 6 one
			// row before, the lookups cost what they save).
			if l.layer > 1 && l.below[0] >= 0 {
				roots.fill(labels, prev)
				belowRoots = &roots
			}
		}
		for y := range l.layer {
			first := next
			next = l.loadRow(src, cur, z, y, next)
			runs, _ := cur.row(y)
			runs = runs[:len(runs)-linkWindow]
			row := (z-z0)*l.layer + y
			hooks += linkRow(labels, runs, first, l.rowRefs(&refs, cur, below, y, true), belowRoots, &scratch)
			b.EdgeRuns[row] = keepEdges(b.Edges[2*row*words:(2*row+2)*words], runs, l.width)
		}
		cur, prev = prev, cur
	}
	b.MoveSlots(labels, l.width, int(next-1)-start, hooks)
}

// MergeBorder joins the first layer of band b with the last layer of band
// b-1.
func (l *runLabeler[K]) MergeBorder(bands []band.Band, b int) {
	src := l.reader()
	cur, prev := l.newLayer(), l.newLayer()
	z := bands[b].First / l.layer
	next := uint32(bands[b].Slots) + 1
	for y := range l.layer {
		next = l.loadRow(src, cur, z, y, next)
		l.loadRow(src, prev, z-1, y, 0)
	}
	// The previous band's last layer holds its last slots.
	next = uint32(bands[b-1].Slots+bands[b-1].Runs-prev.count) + 1
	for y := range l.layer {
		prev.slot[y] = next
		next += uint32(prev.rowStart[y+1] - prev.rowStart[y] - linkWindow)
	}
	var refs [4]keyRef[K]
	join := func(r, u uint32) { band.Join(l.labels, bands, l.width, r, u) }
	for y := range l.layer {
		runs, first := cur.row(y)
		forContacts(runs[:len(runs)-linkWindow], first, l.rowRefs(&refs, cur, prev, y, false), join)
	}
}

// LabelBand is the second pass: it numbers the band's roots in slot
// order, gives every slot its root's label and writes every pixel's label,
// a row at a time, from the run edges the first pass kept. A row's pixels
// only overwrite slots of that row or earlier ones (its slots lie from its
// first pixel on), and its runs' labels are copied before it is written
// where they lie among its pixels.
func (l *runLabeler[K]) LabelBand(b *band.Band, cross *band.CrossLabels) {
	w := l.width
	labels := l.labels
	band.LabelSlots(labels, b, cross)
	runLabels := make([]uint32, w)
	// A row holds at most w runs.
	starts, ends := make([]int32, w), make([]int32, w)
	words := edgeWords(w)
	slot := b.Slots
	for row := b.First; row < b.End; row++ {
		i := row - b.First
		edges, kept := b.Edges[2*i*words:2*(i+1)*words], b.EdgeRuns[i]
		touching := kept < -1 // written from their bounds
		n := int(-2 - kept)
		if !touching {
			n = loadEdges(starts, ends, edges, kept)
		}
		own := labels[slot : slot+n]
		if slot < (row+1)*w { // the row's pixels reach its slots
			own = runLabels[:n]
			copy(own, labels[slot:slot+n])
		}
		slot += n
		var or uint32
		if touching {
			or = band.WriteTouching(labels[row*w:(row+1)*w], edgeBounds(edges), own)
		} else {
			or = band.WriteRuns(labels[row*w:(row+1)*w], starts[:n], ends[:n], own)
		}
		if or&band.PendingFlag != 0 {
			b.MarkPending(row)
		}
	}
	band.PutWords(b.Edges)
	b.Edges, b.EdgeRuns = nil, nil
}
