package grid

import (
	"math/bits"

	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// LabelBinary8 labels a binary 2D image, given as bit masks, at
// 8-connectivity. It writes width*height labels into dst, x fastest: 0 for
// background, 1..N by first occurrence, and returns N. The labels equal
// runs.LabelGrid's with 8-connectivity and keys 1 for foreground.
//
// It is ECL-CC on a coarser graph: two consecutive rows are taken together,
// and a maximal run of columns holding any foreground pixel in either row
// is one vertex, since all of its pixels are 8-connected. Vertices are
// numbered in the memory order of their smallest pixels: row pair by row
// pair, within a pair first the runs with a pixel in the top row, then the
// others, each in column order. Their parents live in a compact array of
// slots inside dst (the band's own pixels, so no memory is added).
//
// The first pass finds, with word-wide bit operations on the masks, every
// run of a pair that touches a run of the pair above, and hooks the two
// (the larger root under the smaller, with path halving). The second pass
// numbers the roots in slot order, which is the order of first occurrence,
// gives every slot its root's label, and then writes every pixel's label
// from its run's slot. Parallel bands work as in runs.LabelGrid.
func LabelBinary8(width, height int, src MaskRows, dst []uint32, threads int) (int, error) {
	shape := GridShape{Width: width, Height: height, Depth: 1}
	if err := shape.validate(8, dst); err != nil {
		return 0, err
	}
	cache := newMaskCache(src, width, height)
	l, bands := planBinary(shape, 8, cache, dst, threads)
	return runCachedBandLabeler(l, cache, bands, dst, width), nil
}

// LabelBinary26 labels a binary volume, given as bit masks, at
// 26-connectivity. It is [LabelBinary8] for rows y + z*height of src. Its
// vertices are runs of bundles: two rows of two
// consecutive planes, all of whose voxels touch those of the next column.
// A bundle is linked to the bundle above it in its plane pair and to the
// three bundles of the plane pair before that can touch it. Bands are
// whole plane pairs.
func LabelBinary26(width, height, depth int, src MaskRows, dst []uint32, threads int) (int, error) {
	shape := GridShape{Width: width, Height: height, Depth: depth}
	if err := shape.validate(26, dst); err != nil {
		return 0, err
	}
	cache := newMaskCache(src, width, height*depth)
	l, bands := planBinary(shape, 26, cache, dst, threads)
	return runCachedBandLabeler(l, cache, bands, dst, width), nil
}

// binary8Labeler holds one LabelBinary8 run. Until the labeling pass, each
// band's part of labels holds the parents (slot index+1) of its runs'
// slots, which lie at the end of the band's pixels; the rest is unused.
type binary8Labeler struct {
	width, height int
	src           MaskRows
	labels        []uint32
	narrow        *narrowRows // where the pixels' uint16 labels go (setNarrow)
	keep          bool        // the first pass keeps the slots where it numbers them (keepSlots)
}

// hasBottom reports whether the pair starting at row has a second row.
func (l *binary8Labeler) hasBottom(row int) bool { return row+1 < l.height }

// pairStep is the number of rows the pair starting at row covers.
func (l *binary8Labeler) pairStep(row int) int {
	if l.hasBottom(row) {
		return 2
	}
	return 1
}

// pairScan holds the masks of a row pair and its runs. Every mask has one
// word more than a row needs, always zero past the last column, so that
// run ends at column width have a bit.
type pairScan struct {
	top, bottom, either []uint64
	// ends has bit x set when column x-1 is the last of a run; topEnds
	// only for the runs with a pixel in the top row.
	ends, topEnds []uint64
	rank          []uint32 // number of runs ending in the words before
	slot          []uint32 // slot (index+1) of each run, in column order
	// col holds, after fillColumns, the slot of the run holding each
	// column; a gap column holds the next run's slot. Volumes fill it
	// (each pair meets four others there); images count ranks instead.
	col           []uint32
	useCol        bool
	runs, topRuns int
}

func newPairScan(width int) *pairScan {
	n := maskWords(width) + 1
	return &pairScan{
		top: make([]uint64, n), bottom: make([]uint64, n), either: make([]uint64, n),
		ends: make([]uint64, n), topEnds: make([]uint64, n), rank: make([]uint32, n),
		slot: make([]uint32, (width+1)/2), col: make([]uint32, width+8),
	}
}

// load reads rows y and y+1 (the latter empty past the last row) and finds
// the pair's runs.
func (l *binary8Labeler) load(m *pairScan, y int) {
	l.loadRows(m, y, l.hasBottom(y))
}

// loadRows reads row and, if hasBottom, the row after it (else an empty
// bottom row), and finds the pair's runs.
func (l *binary8Labeler) loadRows(m *pairScan, row int, hasBottom bool) {
	n := maskWords(l.width)
	top, bottom := m.top[:n], m.bottom[:n]
	l.src.Mask(row, top)
	if hasBottom {
		l.src.Mask(row+1, bottom)
	} else {
		clear(bottom)
	}
	if tail := l.width & 63; tail != 0 {
		keep := uint64(1)<<tail - 1
		top[n-1] &= keep
		bottom[n-1] &= keep
	}
	for i := range top {
		m.either[i] = top[i] | bottom[i]
	}
	m.scan()
}

// scan sets ends, topEnds, rank, runs and topRuns from the masks. Adding
// the top row to either carries through each run holding a top pixel and
// out at its end.
func (m *pairScan) scan() {
	var shift, carry uint64
	runs, topRuns := 0, 0
	ends, topEnds, rank, top := m.ends, m.topEnds[:len(m.ends)], m.rank[:len(m.ends)], m.top[:len(m.ends)]
	for i, e := range m.either[:len(m.ends)] {
		end := (e<<1 | shift) &^ e
		shift = e >> 63
		var sum uint64
		sum, carry = bits.Add64(e, top[i], carry)
		ends[i] = end
		topEnds[i] = sum &^ e
		rank[i] = uint32(runs)
		runs += bits.OnesCount64(end)
		topRuns += bits.OnesCount64(sum &^ e)
	}
	m.runs, m.topRuns = runs, topRuns
}

// number gives the runs their slots, the first being first (index+1): the
// runs with a top pixel first, then the others.
func (m *pairScan) number(first uint32) {
	t, b := first, first+uint32(m.topRuns)
	slot := m.slot[:m.runs]
	k := 0
	for i, word := range m.ends {
		topEnds := m.topEnds[i]
		for word != 0 {
			z := bits.TrailingZeros64(word)
			word &= word - 1
			isTop := uint32(topEnds>>z) & 1
			slot[k] = b + (t-b)&-isTop
			k++
			t += isTop
			b += 1 - isTop
		}
	}
}

// fillColumns sets col from slot, for slotAt.
func (m *pairScan) fillColumns() {
	m.useCol = true
	from, k := 0, 0
	for i, word := range m.ends {
		for word != 0 {
			end := i<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			fillFrom(m.col, from, end, m.slot[k])
			k++
			from = end
		}
	}
}

// slotAt returns the slot of the run holding column x, or for a gap
// column the run after it.
func (m *pairScan) slotAt(x int) uint32 {
	if m.useCol {
		return m.col[x]
	}
	i := x >> 6
	return m.slot[m.rank[i]+uint32(bits.OnesCount64(m.ends[i]&(2<<(x&63)-1)))]
}

// contacts appends to buf, as slot pairs (cur<<32 | above), the runs of cur
// that touch a run of above, the pair just above it. A contact is a pixel
// a of above's bottom row with a top pixel of cur at a-1, a or a+1. Runs
// that overlap meet in a run of both either-masks; one contact in such an
// intersection joins its two runs, and the carry of an addition finds the
// intersections holding one. Otherwise a lies between two runs of cur, and
// touches the run ending at a or the one starting at a+1; such contacts
// are only kept when the pixel beside a does not already join the same
// two runs through an intersection.
func contacts(buf []uint64, cur, above *pairScan) []uint64 {
	n := len(cur.ends)
	top, either := cur.top[:n], cur.either[:n]
	abBottom, abEither := above.bottom[:n], above.either[:n]
	var prevT, prevA, carry uint64
	for i := range n {
		t, a := top[i], abBottom[i]
		var nextT, nextA uint64
		if i+1 < n {
			nextT, nextA = top[i+1], abBottom[i+1]
		}
		left := t<<1 | prevT>>63 // top pixel at a-1
		right := t>>1 | nextT<<63
		aLeft := a<<1 | prevA>>63
		aRight := a>>1 | nextA<<63
		prevT, prevA = t, a
		touch := a & (t | left | right)
		both := either[i] & abEither[i]
		var sum uint64
		sum, carry = bits.Add64(both, touch&both, carry)
		for ends := sum &^ both; ends != 0; ends &= ends - 1 {
			x := i<<6 | bits.TrailingZeros64(ends) - 1
			buf = append(buf, uint64(cur.slotAt(x))<<32|uint64(above.slotAt(x)))
		}
		gap := touch &^ either[i]
		for g := gap & left &^ aLeft; g != 0; g &= g - 1 {
			x := i<<6 | bits.TrailingZeros64(g)
			buf = append(buf, uint64(cur.slotAt(x-1))<<32|uint64(above.slotAt(x)))
		}
		for g := gap & right &^ aRight; g != 0; g &= g - 1 {
			x := i<<6 | bits.TrailingZeros64(g)
			buf = append(buf, uint64(cur.slotAt(x))<<32|uint64(above.slotAt(x)))
		}
	}
	return buf
}

// LinkBand is the first pass over a band: it gives every run a slot,
// starting at the band's first pixel, hooks the touching runs of
// consecutive pairs and finally moves the slots to the end of the band's
// pixels, where the labeling pass never overwrites one it still needs.
func (l *binary8Labeler) LinkBand(b *band.Band) {
	w := l.width
	labels := l.labels
	cur, above := newPairScan(w), newPairScan(w)
	buf := make([]uint64, 0, 3*(w+1))
	start := b.First * w
	next := uint32(start) + 1
	hooks := 0
	for y := b.First; y < b.End; y += l.pairStep(y) {
		l.load(cur, y)
		cur.number(next)
		for s := range uint32(cur.runs) {
			labels[next-1+s] = next + s
		}
		next += uint32(cur.runs)
		if y > b.First {
			buf = contacts(buf[:0], cur, above)
			hooks += band.LinkContacts(labels, buf)
		}
		cur, above = above, cur
	}
	placeSlots(b, labels, w, int(next-1)-start, hooks, l.keep)
}

// MergeBorder joins the first row pair of band b with the pair above it.
func (l *binary8Labeler) MergeBorder(bands []band.Band, b int) {
	w := l.width
	y := bands[b].First
	cur, above := newPairScan(w), newPairScan(w)
	l.load(cur, y)
	cur.number(uint32(bands[b].Slots) + 1)
	l.load(above, y-2)
	above.number(uint32(bands[b-1].Slots+bands[b-1].Runs-above.runs) + 1)
	band.JoinContacts(l.labels, bands, w, contacts(nil, cur, above))
}

// LabelBand is the second pass: it numbers the band's roots in slot order,
// gives every slot its root's label (for a root in an earlier band,
// through cross) and writes the labels of every pixel. A pair's pixels
// only overwrite slots of that pair or earlier ones.
func (l *binary8Labeler) LabelBand(b *band.Band, cross *band.CrossLabels) {
	w := l.width
	labels := l.labels
	if l.narrow == nil {
		b.MoveKeptSlots(labels, w) // the pixels' labels go over them
	}
	band.LabelSlots(labels, b, cross)
	lo := b.Slots
	m := newPairScan(w)
	columns := make([]uint32, w+8) // label of each column's run
	var columns16 []uint16
	var out *rowWindow
	if l.narrow != nil {
		columns16 = make([]uint16, w+8)
		out = l.narrow.window(b.First)
		defer out.flush()
	}
	slot := uint32(lo) + 1
	for y := b.First; y < b.End; y += l.pairStep(y) {
		l.load(m, y)
		m.number(slot)
		slot += uint32(m.runs)
		if l.narrow != nil {
			m.writePair16(out.span(y, y+l.pairStep(y)), labels, columns16, w, 0, l.hasBottom(y))
		} else {
			m.writePair(b, labels, columns, w, y, l.hasBottom(y))
		}
	}
}

// runColumns gives each column the label of its run (runs ending where
// ends has a bit, their slots in slot, labels read from labels) and
// returns the OR of those labels, which holds band.PendingFlag when one is
// still pending.
func runColumns(ends []uint64, slot, labels, columns []uint32) (flags uint32) {
	from, k := 0, 0
	for i, word := range ends {
		for word != 0 {
			end := i<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			label := labels[slot[k]-1]
			k++
			flags |= label
			fillFrom(columns, from, end, label)
			from = end
		}
	}
	return flags
}

// writePair writes the labels of the pair m holds, rows row and row + 1
// (when bottom) of labels, w to a row: each column takes its run's label,
// read from the run's slot before any is overwritten; the rows are marked
// pending when a label still is.
func (m *pairScan) writePair(b *band.Band, labels, columns []uint32, w, row int, bottom bool) {
	if runColumns(m.ends, m.slot, labels, columns)&band.PendingFlag != 0 {
		b.MarkPending(row)
		if bottom {
			b.MarkPending(row + 1)
		}
	}
	top := labels[row*w : (row+1)*w]
	if bottom {
		fillRows(top, labels[(row+1)*w:(row+2)*w], columns, m.top, m.bottom)
	} else {
		fillRows(top, top, columns, m.top, m.top)
	}
}

// fillFrom sets columns [from, end) to v, and possibly a few after end, up
// to 8 past the last one set; columns must have room for them.
func fillFrom[T uint16 | uint32](columns []T, from, end int, v T) {
	for x := from; x < end; x += 8 {
		c := columns[x : x+8 : x+8]
		c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7] = v, v, v, v, v, v, v, v
	}
}

// fillRows writes rows top and bottom: the label of each foreground
// pixel's column and 0 for background pixels, without branching on the
// data.
func fillRows(top, bottom, columns []uint32, topMask, bottomMask []uint64) {
	w := len(top)
	bottom, columns = bottom[:w], columns[:w]
	for i := range maskWords(w) {
		lo := i * 64
		hi := min(lo+64, w)
		maskedCopy(top[lo:hi], columns[lo:hi], topMask[i])
		maskedCopy(bottom[lo:hi], columns[lo:hi], bottomMask[i])
	}
}

// maskedCopy writes src[x] into dst[x] where bit x of m is set and 0
// elsewhere (at most 64 elements): whole copies or clears for full and
// empty words, else eight at a time without branching on the data.
func maskedCopy(dst, src []uint32, m uint64) {
	src = src[:len(dst)]
	switch {
	case m == ^uint64(0) || (len(dst) < 64 && m == 1<<len(dst)-1):
		copy(dst, src)
		return
	case m == 0:
		clear(dst)
		return
	}
	x := 0
	for ; x+8 <= len(dst); x += 8 {
		b := uint32(m >> (x & 63))
		d, c := dst[x:x+8:x+8], src[x:x+8:x+8]
		d[0] = c[0] & -(b & 1)
		d[1] = c[1] & -(b >> 1 & 1)
		d[2] = c[2] & -(b >> 2 & 1)
		d[3] = c[3] & -(b >> 3 & 1)
		d[4] = c[4] & -(b >> 4 & 1)
		d[5] = c[5] & -(b >> 5 & 1)
		d[6] = c[6] & -(b >> 6 & 1)
		d[7] = c[7] & -(b >> 7 & 1)
	}
	for ; x < len(dst); x++ {
		dst[x] = src[x] & -uint32(m>>(x&63)&1)
	}
}
