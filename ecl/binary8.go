package ecl

import "math/bits"

// LabelBinary8 labels a binary 2D image at 8-connectivity, given as bit
// masks, into dst (width*height labels, x fastest): 0 for background, 1..N
// by first occurrence. It returns N. The labels equal LabelGrid's with
// 8-connectivity and keys 1 for foreground.
//
// It is ECL-CC on a coarser graph: two consecutive rows are taken together,
// and a maximal run of columns holding any foreground pixel in either row
// is one vertex, since all of its pixels are 8-connected. Its
// representative is its smallest pixel. Each vertex points at the first
// joined vertex of the row pair above and is hooked to any further one,
// with intermediate pointer jumping; a second pass numbers the roots in
// memory order and writes every pixel's label. Parallel bands work as in
// LabelGrid.
func LabelBinary8(width, height int, src MaskRows, dst []uint32, threads int) (int, error) {
	shape := GridShape{Width: width, Height: height, Depth: 1}
	if err := shape.validate(8, dst); err != nil {
		return 0, err
	}
	pairs := (height + 1) / 2
	threads = clampThreads(threads, max(1, pairs/4))
	bands := make([]gridBand, threads)
	for b := range bands {
		bands[b].first = min(2*(pairs*b/threads), height)
		bands[b].end = min(2*(pairs*(b+1)/threads), height)
	}
	l := &binary8Labeler{width: width, height: height, src: src, labels: dst}
	runBands(bands, func(b *gridBand) { l.linkBand(b) })
	for b := 1; b < len(bands); b++ {
		l.mergeBorder(bands, b)
	}
	cross := newCrossBandLabels(dst, bands)
	next := numberBands(bands)
	runBands(bands, func(b *gridBand) { l.labelBand(b, cross) })
	runBands(bands, func(b *gridBand) { cross.finishBand(dst, width, b) })
	return int(next - 1), nil
}

// binary8Labeler holds one LabelBinary8 run. Until the labeling pass,
// labels hold the parent (index+1) of each run's representative pixel; the
// other entries are unused.
type binary8Labeler struct {
	width, height int
	src           MaskRows
	labels        []uint32
}

// pairRun is a run of columns [start, end) of a row pair with foreground
// in either row; rep is its smallest foreground pixel (index+1) and label
// its label during the labeling pass.
type pairRun struct {
	start, end int32
	rep        uint32
	label      uint32
}

// pairMasks holds the masks of a row pair.
type pairMasks struct {
	top, bottom, either []uint64
}

func newPairMasks(width int) pairMasks {
	n := maskWords(width)
	return pairMasks{make([]uint64, n), make([]uint64, n), make([]uint64, n)}
}

// load reads rows y and y+1 (the latter empty past the last row).
func (l *binary8Labeler) load(m pairMasks, y int) {
	l.src.Mask(y, m.top)
	if y+1 < l.height {
		l.src.Mask(y+1, m.bottom)
	} else {
		clear(m.bottom)
	}
	if tail := l.width & 63; tail != 0 {
		keep := uint64(1)<<tail - 1
		m.top[len(m.top)-1] &= keep
		m.bottom[len(m.bottom)-1] &= keep
	}
	for i := range m.either {
		m.either[i] = m.top[i] | m.bottom[i]
	}
}

// appendPairRuns appends the runs of the row pair starting at row y. Run
// boundaries come from the bits where the either-mask changes, found a
// word at a time.
func (l *binary8Labeler) appendPairRuns(runs []pairRun, m pairMasks, y int) []pairRun {
	w := l.width
	top := uint32(y*w) + 1
	start := -1
	var carry uint64
	for i, word := range m.either {
		edges := word ^ (word<<1 | carry)
		carry = word >> 63
		for edges != 0 {
			x := i<<6 | bits.TrailingZeros64(edges)
			edges &= edges - 1
			if start < 0 {
				start = x
				continue
			}
			runs = append(runs, pairRun{start: int32(start), end: int32(x), rep: top + m.firstPixel(start, x, w)})
			start = -1
		}
	}
	if start >= 0 {
		runs = append(runs, pairRun{start: int32(start), end: int32(w), rep: top + m.firstPixel(start, w, w)})
	}
	return runs
}

// firstPixel returns the offset from the pair's first pixel of the
// smallest foreground pixel in columns [s, e): in the top row if it has
// one there, else in the bottom row.
func (m pairMasks) firstPixel(s, e, w int) uint32 {
	if t := m.top[s>>6] >> (s & 63); t != 0 {
		if x := s + bits.TrailingZeros64(t); x < e {
			return uint32(x)
		}
	} else if t := nextSet(m.top, s, e); t < e {
		return uint32(t)
	}
	return uint32(w + nextSet(m.bottom, s, e))
}

// touches reports whether run r's top row has an 8-neighbour in run p of
// the bottom row above. contact holds the top row dilated by one pixel AND
// the bottom row above, which is exact for the columns of r; the columns
// just beside r are tested directly.
func touches(r, p pairRun, contact, top, aboveBottom []uint64, width int) bool {
	s, e := int(r.start), int(r.end)
	ps, pe := int(p.start), int(p.end)
	if lo, hi := max(s, ps), min(e, pe); lo < hi && rangeAny(contact, lo, hi) {
		return true
	}
	if ps < s && s <= pe && maskBit(top, s) == 1 && maskBit(aboveBottom, s-1) == 1 {
		return true
	}
	return e < pe && ps <= e && e < width && maskBit(top, e-1) == 1 && maskBit(aboveBottom, e) == 1
}

// rangeAny reports whether any bit of m in [lo, hi) is set.
func rangeAny(m []uint64, lo, hi int) bool {
	for lo < hi {
		w := m[lo>>6] >> (lo & 63)
		if n := hi - lo; n < 64-(lo&63) {
			return w&(1<<n-1) != 0
		}
		if w != 0 {
			return true
		}
		lo = (lo | 63) + 1
	}
	return false
}

// forContacts appends to touched the index of every run of prev (the row
// pair above) that run r touches, and returns it with the cursor j moved
// past the runs of prev that end before r: they cannot touch later runs.
func forContacts(touched []int32, r pairRun, prev []pairRun, j int, contact, top, aboveBottom []uint64, width int) ([]int32, int) {
	for j < len(prev) && prev[j].end < r.start {
		j++
	}
	for k := j; k < len(prev) && prev[k].start <= r.end; k++ {
		if touches(r, prev[k], contact, top, aboveBottom, width) {
			touched = append(touched, int32(k))
		}
	}
	return touched, j
}

// linkBand is the first pass over a band: every run's representative
// points at the first joined run above, further joined runs are hooked.
func (l *binary8Labeler) linkBand(b *gridBand) {
	w := l.width
	cur, above := newPairMasks(w), newPairMasks(w)
	contact := make([]uint64, maskWords(w))
	var prev, runs []pairRun
	var touched []int32
	roots := 0
	for y := b.first; y < b.end; y += 2 {
		l.load(cur, y)
		runs = l.appendPairRuns(runs[:0], cur, y)
		if y > b.first {
			dilateAnd(contact, cur.top, above.bottom)
		}
		j := 0
		for i := range runs {
			r := &runs[i]
			var parent uint32
			if y > b.first {
				touched, j = forContacts(touched[:0], *r, prev, j, contact, cur.top, above.bottom, w)
				for k, p := range touched {
					if k == 0 {
						parent = prev[p].rep
					} else if union(l.labels, parent, prev[p].rep) != 0 {
						roots--
					}
				}
			}
			if parent == 0 {
				parent = r.rep
				roots++
			}
			l.labels[r.rep-1] = parent
		}
		prev, runs = runs, prev
		cur, above = above, cur
	}
	b.roots = roots
}

// mergeBorder joins the first row pair of band b with the pair above it.
func (l *binary8Labeler) mergeBorder(bands []gridBand, b int) {
	w := l.width
	y := bands[b].first
	cur, above := newPairMasks(w), newPairMasks(w)
	l.load(cur, y)
	l.load(above, y-2)
	runs := l.appendPairRuns(nil, cur, y)
	prev := l.appendPairRuns(nil, above, y-2)
	contact := make([]uint64, maskWords(w))
	dilateAnd(contact, cur.top, above.bottom)
	j := 0
	var touched []int32
	for _, r := range runs {
		touched, j = forContacts(touched[:0], r, prev, j, contact, cur.top, above.bottom, w)
		for _, p := range touched {
			if dead := hook(l.labels, findRoot(l.labels, r.rep), findRoot(l.labels, prev[p].rep)); dead != 0 {
				owner := bandOf(bands, int(dead-1)/w)
				owner.roots--
				owner.hooked = append(owner.hooked, dead)
			}
		}
	}
}

// labelBand is the second pass: it numbers the band's roots in memory
// order, gives every run its root's label (for a root in an earlier band,
// through cross) and writes the labels of every pixel.
func (l *binary8Labeler) labelBand(b *gridBand, cross *crossBandLabels) {
	w := l.width
	lo := uint32(b.first*w) + 1 // smallest index+1 in the band
	m := newPairMasks(w)
	columns := make([]uint32, w) // label of each column's run, 0 between runs
	var runs []pairRun
	next := b.firstLabel
	var pending uint32
	resolve := func(r *pairRun) {
		p := l.labels[r.rep-1]
		switch {
		case p == r.rep:
			r.label = next
			cross.publish(p, next)
			next++
		case p >= lo:
			r.label = l.labels[p-1]
		default:
			r.label = cross.label(p, b)
		}
		pending |= r.label
		l.labels[r.rep-1] = r.label
	}
	for y := b.first; y < b.end; y += 2 {
		l.load(m, y)
		runs = l.appendPairRuns(runs[:0], m, y)
		topEnd := uint32((y+1)*w) + 1
		for i := range runs { // representatives in the top row come first
			if runs[i].rep < topEnd {
				resolve(&runs[i])
			}
		}
		for i := range runs {
			if runs[i].rep >= topEnd {
				resolve(&runs[i])
			}
		}
		if pending&pendingFlag != 0 {
			b.markPending(y)
			if y+1 < l.height {
				b.markPending(y + 1)
			}
			pending = 0
		}
		for _, r := range runs {
			fillConst(columns[r.start:r.end], r.label)
		}
		fillRow(l.labels[y*w:(y+1)*w], columns, m.top)
		if y+1 < l.height {
			fillRow(l.labels[(y+1)*w:(y+2)*w], columns, m.bottom)
		}
		clear(columns)
	}
}

// fillConst sets every element of dst to v.
func fillConst(dst []uint32, v uint32) {
	for i := range dst {
		dst[i] = v
	}
}

// fillRow writes the label of each foreground pixel's column and 0 for
// background pixels, without branching on the data.
func fillRow(row, columns []uint32, mask []uint64) {
	columns = columns[:len(row)]
	for i, m := range mask {
		lo := i * 64
		hi := min(lo+64, len(row))
		r, c := row[lo:hi], columns[lo:hi]
		for x := range r {
			r[x] = c[x] & -uint32(m&1)
			m >>= 1
		}
	}
}
