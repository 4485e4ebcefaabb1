package grid

import (
	"math/bits"
	"slices"

	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// LabelBinary labels a binary grid, given as bit masks, at any
// connectivity. Row r of src is y + z*Height; connectivity is 4 or 8 in
// 2D, 6, 18 or 26 in 3D. It writes 0 for background and 1..N by first
// occurrence into dst (x fastest) and returns N; the labels equal
// runs.LabelGrid's with keys 1 for foreground, for every thread count.
//
// 8 and 26 run LabelBinary8 and LabelBinary26, 18 runs LabelBinary8's
// row pairs in each plane (see pair18Labeler). 4 and 6 run ECL-CC on
// the runs of the rows: every maximal run of foreground pixels of a row is
// one vertex, numbered in memory order, so the smallest vertex of a
// component holds its first pixel. Runs of one row are found with word-wide
// bit operations on the masks, and so are the contacts with the rows
// before that the stencil reaches (face contacts: one per run of pixels
// set in both rows; diagonal contacts: also pixels set in one row beside a
// pixel of the other); each contact hooks its two runs. Parallel bands
// work as in runs.LabelGrid, with the runs' parents kept inside dst.
func LabelBinary(shape GridShape, connectivity int, src MaskRows, dst []uint32, threads int) (int, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, err
	}
	cache := newMaskCache(src, shape.Width, shape.Height*shape.Depth)
	l, bands := planBinary(shape, connectivity, cache, dst, threads)
	return runCachedBandLabeler(l, cache, bands, dst, shape.Width), nil
}

// labelBinaryRows is LabelBinary on row runs, for every connectivity; the
// shape and connectivity must be valid.
func labelBinaryRows(shape GridShape, connectivity int, src MaskRows, dst []uint32, threads int) int {
	cache := newMaskCache(src, shape.Width, shape.Height*shape.Depth)
	l := newRowLabeler(shape, connectivity, cache, dst)
	return runCachedBandLabeler(l, cache, band.Layers(l.layers, l.layer, threads), dst, shape.Width)
}

// newRowLabeler returns the row-run labeler of a grid reading src.
func newRowLabeler(shape GridShape, connectivity int, src MaskRows, dst []uint32) *rowLabeler {
	l := &rowLabeler{width: shape.Width, src: src, labels: dst}
	l.layer, l.layers = band.Layering(shape.Height, shape.Depth)
	l.same, l.below = band.LayerSlack(connectivity)
	return l
}

// rowLabeler holds one labelBinaryRows run. Until the labeling pass, each
// band's part of labels holds the parents (slot index+1) of its runs'
// slots, as for binary8Labeler.
type rowLabeler struct {
	width         int
	layer, layers int // rows a layer, layers
	same          int32
	below         [3]int32
	src           MaskRows
	labels        []uint32
	narrow        *narrowRows // where the pixels' uint16 labels go (setNarrow)
	keep          bool        // the first pass keeps the slots where it numbers them (keepSlots)
}

// rowScan holds the mask of a row and its runs. The mask has one word
// more than the row needs, always zero, so that a run ending at the last
// column has an end bit.
type rowScan struct {
	mask   []uint64
	bounds []int32 // for LabelBand: start and end of each run, then a sentinel
	words  []scanWord
	runs   int
	// first is the slot (index+1) of the row's first run; the others
	// follow in column order.
	first uint32
}

// scanWord holds the run ends of a mask word (bit x set when column x-1
// is the last of a run) and the slot of the first run ending there.
type scanWord struct {
	ends uint64
	base uint32
}

func newRowScan(width int) *rowScan {
	n := maskWords(width) + 1
	return &rowScan{mask: make([]uint64, n), words: make([]scanWord, n), bounds: make([]int32, width+4)}
}

// newLayer allocates the scans of one layer.
func (l *rowLabeler) newLayer() []*rowScan {
	s := make([]*rowScan, l.layer)
	for i := range s {
		s[i] = newRowScan(l.width)
	}
	return s
}

// number gives the row's runs their slots, from first on.
func (m *rowScan) number(first uint32) {
	for i := range m.words {
		m.words[i].base += first - m.first
	}
	m.first = first
}

// loadMask reads row of src into mask.
func (m *rowScan) loadMask(src MaskRows, row, width int) {
	n := maskWords(width)
	src.Mask(row, m.mask[:n])
	if tail := width & 63; tail != 0 {
		m.mask[n-1] &= 1<<tail - 1
	}
}

// load reads row of src and finds its runs, numbered from 0 (see number).
func (m *rowScan) load(src MaskRows, row, width int) {
	m.loadMask(src, row, width)
	var shift uint64
	runs := 0
	words := m.words[:len(m.mask)]
	for i, e := range m.mask {
		end := (e<<1 | shift) &^ e
		shift = e >> 63
		words[i] = scanWord{ends: end, base: uint32(runs)}
		runs += bits.OnesCount64(end)
	}
	m.runs = runs
	m.first = 0
}

// countRuns returns the number of runs of set bits of mask.
func countRuns(mask []uint64) int {
	n := 0
	var carry uint64
	for _, e := range mask {
		n += bits.OnesCount64(e &^ (e<<1 | carry))
		carry = e >> 63
	}
	return n
}

// slotAt returns the slot of the run holding column x: the base of its
// word plus the runs ending in the word up to x.
func (m *rowScan) slotAt(x int) uint32 {
	w := m.words[x>>6]
	return w.base + uint32(bits.OnesCount64(w.ends<<(63-x&63)))
}

// runBounds writes the bounds of the runs of set bits of mask (whose last
// word is zero) into bounds, start and end (exclusive) of each in turn,
// then a sentinel run, and returns the number of runs. A run starts or
// ends where a bit differs from the one before.
func runBounds(bounds []int32, mask []uint64) int {
	k := 0
	var carry uint64
	for i, e := range mask {
		change := e ^ (e<<1 | carry)
		carry = e >> 63
		for ; change != 0; change &= change - 1 {
			bounds[k] = int32(i<<6 | bits.TrailingZeros64(change))
			k++
		}
	}
	bounds[k], bounds[k+1] = band.SentinelColumn, band.SentinelColumn
	return k / 2
}

// rowContacts appends to buf, as slot pairs (cur<<32 | other), contacts
// that join every run of cur to every run of other it touches: with slack
// 0 face neighbours (one contact per run of columns set in both rows),
// with slack 1 diagonal neighbours too (a pixel of other at x beside a
// pixel of cur at x-1 or x+1, kept only where the two runs do not also
// overlap there).
func rowContacts(buf []uint64, cur, other *rowScan, slack int32) []uint64 {
	t, a := cur.mask, other.mask[:len(cur.mask)]
	var prevBoth, prevT, prevA uint64
	for i := range t {
		ti, ai := t[i], a[i]
		both := ti & ai
		for s := both &^ (both<<1 | prevBoth>>63); s != 0; s &= s - 1 {
			x := i<<6 | bits.TrailingZeros64(s)
			buf = append(buf, uint64(cur.slotAt(x))<<32|uint64(other.slotAt(x)))
		}
		prevBoth = both
		if slack == 0 {
			continue
		}
		var nextT, nextA uint64
		if i+1 < len(t) {
			nextT, nextA = t[i+1], a[i+1]
		}
		left := ti<<1 | prevT>>63 // cur at x-1
		right := ti>>1 | nextT<<63
		aLeft := ai<<1 | prevA>>63 // other at x-1
		aRight := ai>>1 | nextA<<63
		prevT, prevA = ti, ai
		gap := ai &^ ti
		for g := gap & left &^ aLeft; g != 0; g &= g - 1 {
			x := i<<6 | bits.TrailingZeros64(g)
			buf = append(buf, uint64(cur.slotAt(x-1))<<32|uint64(other.slotAt(x)))
		}
		for g := gap & right &^ aRight; g != 0; g &= g - 1 {
			x := i<<6 | bits.TrailingZeros64(g)
			buf = append(buf, uint64(cur.slotAt(x+1))<<32|uint64(other.slotAt(x)))
		}
	}
	return buf
}

// faceContacts2 is rowContacts with slack 0 against two rows at once, a
// and b: the contacts come in column order, so each run of cur has its
// contacts together. Both rows' contacts at a column are written without
// branching, the one not found overwritten by what follows.
func faceContacts2(buf []uint64, cur, a, b *rowScan) []uint64 {
	t := cur.mask
	ma, mb := a.mask[:len(t)], b.mask[:len(t)]
	n := len(buf)
	// At most one contact per column with each row, and the last column
	// empty; two entries are written past the last kept.
	buf = slices.Grow(buf, 2*len(t)*64+2)
	buf = buf[:cap(buf)]
	var prevA, prevB uint64
	for i := range t {
		bothA, bothB := t[i]&ma[i], t[i]&mb[i]
		sa := bothA &^ (bothA<<1 | prevA>>63)
		sb := bothB &^ (bothB<<1 | prevB>>63)
		prevA, prevB = bothA, bothB
		for s := sa | sb; s != 0; s &= s - 1 {
			z := bits.TrailingZeros64(s)
			x := i<<6 | z
			r := uint64(cur.slotAt(x)) << 32
			buf[n] = r | uint64(a.slotAt(x))
			n += int(sa >> z & 1)
			buf[n] = r | uint64(b.slotAt(x))
			n += int(sb >> z & 1)
		}
	}
	return buf[:n]
}

// layerContacts appends the contacts of row y of layer cur: with row y-1
// of cur when same is set, and with rows y-1, y and y+1 of prev, the layer
// before, when prev is not nil. It also returns how many of the contacts
// it appended (from the first row it looked at) are fresh: in run order
// of cur, each run's consecutive (face contacts only), as
// band.LinkFreshContacts takes them when they are a row's first links.
func (l *rowLabeler) layerContacts(buf []uint64, cur, prev []*rowScan, y int, same bool) ([]uint64, int) {
	n0, fresh := len(buf), -1
	firstDone := func(slack int32) {
		if fresh < 0 {
			fresh = 0
			if slack == 0 {
				fresh = len(buf) - n0
			}
		}
	}
	if same && y > 0 && prev != nil && l.same == 0 && l.below == [3]int32{-1, 0, -1} {
		// 6-connectivity: the face contacts with the row above and the
		// row behind, together in column order, all fresh.
		buf = faceContacts2(buf, cur[y], cur[y-1], prev[y])
		return buf, len(buf) - n0
	}
	if same && y > 0 && l.same >= 0 {
		buf = rowContacts(buf, cur[y], cur[y-1], l.same)
		firstDone(l.same)
	}
	if prev == nil {
		return buf, max(fresh, 0)
	}
	for dy := -1; dy <= 1; dy++ {
		if s := l.below[dy+1]; s >= 0 && y+dy >= 0 && y+dy < len(prev) {
			buf = rowContacts(buf, cur[y], prev[y+dy], s)
			firstDone(s)
		}
	}
	return buf, max(fresh, 0)
}

// loadLayer loads the rows of layer z into scans and numbers their runs
// from next; it returns the slot after the last.
func (l *rowLabeler) loadLayer(scans []*rowScan, z int, next uint32) uint32 {
	for y, m := range scans {
		m.load(l.src, z*l.layer+y, l.width)
		m.number(next)
		next += uint32(m.runs)
	}
	return next
}

// LinkBand is the first pass over a band: it gives every run a slot,
// starting at the band's first pixel, hooks the runs that touch and moves
// the slots to the end of the band's pixels (see band.Band.MoveSlots; a row
// has at most (width+1)/2 runs).
func (l *rowLabeler) LinkBand(b *band.Band) {
	w := l.width
	labels := l.labels
	cur, prev := l.newLayer(), l.newLayer()
	buf := make([]uint64, 0, 4*(w+1))
	start := b.First * w
	next := uint32(start) + 1
	hooks := 0
	z0 := b.First / l.layer
	for z := z0; z < b.End/l.layer; z++ {
		var below []*rowScan
		if z > z0 {
			below = prev
		}
		for y, m := range cur {
			m.load(l.src, z*l.layer+y, w)
			m.number(next)
			for s := range uint32(m.runs) {
				labels[next-1+s] = next + s
			}
			next += uint32(m.runs)
			var fresh int
			buf, fresh = l.layerContacts(buf[:0], cur, below, y, true)
			hooks += band.LinkFreshContacts(labels, buf[:fresh])
			hooks += band.LinkContacts(labels, buf[fresh:])
		}
		cur, prev = prev, cur
	}
	placeSlots(b, labels, w, int(next-1)-start, hooks, l.keep)
}

// MergeBorder joins the first layer of band b with the last layer of band
// b-1.
func (l *rowLabeler) MergeBorder(bands []band.Band, b int) {
	cur, prev := l.newLayer(), l.newLayer()
	z := bands[b].First / l.layer
	l.loadLayer(cur, z, uint32(bands[b].Slots)+1)
	runs := 0
	for y, m := range prev {
		m.load(l.src, (z-1)*l.layer+y, l.width)
		runs += m.runs
	}
	next := uint32(bands[b-1].Slots+bands[b-1].Runs-runs) + 1
	for _, m := range prev {
		m.number(next)
		next += uint32(m.runs)
	}
	var found []uint64
	for y := range cur {
		found, _ = l.layerContacts(found[:0], cur, prev, y, false)
		band.JoinContacts(l.labels, bands, l.width, found)
	}
}

// LabelBand is the second pass: it numbers the band's roots in slot
// order, gives every slot its root's label and writes every pixel's label,
// a row at a time. A row's pixels only overwrite slots of that row or
// earlier ones, and its runs' labels are all read before it is written.
// Rows are written run by run (band.WriteBounds), or, where that has no
// fast path and runs are short, eight entries at a time (fillShortRuns).
func (l *rowLabeler) LabelBand(b *band.Band, cross *band.CrossLabels) {
	w := l.width
	labels := l.labels
	if l.narrow == nil {
		b.MoveKeptSlots(labels, w) // the pixels' labels go over them
	}
	band.LabelSlots(labels, b, cross)
	m := newRowScan(w)
	own := make([]uint32, (w+1)/2)
	slot := b.Slots
	fast := band.FastWrites()
	var out *rowWindow
	if l.narrow != nil {
		out = l.narrow.window(b.First)
		defer out.flush()
	}
	for row := b.First; row < b.End; row++ {
		m.loadMask(l.src, row, w)
		if l.narrow != nil {
			m.runs = runBounds(m.bounds, m.mask)
			band.WriteBounds16(out.span(row, row+1), m.bounds, labels[slot:slot+m.runs])
			slot += m.runs
			continue
		}
		if fast { // the run bounds, counted on the way
			m.runs = runBounds(m.bounds, m.mask)
		} else {
			m.runs = countRuns(m.mask)
		}
		runs := own[:m.runs]
		copy(runs, labels[slot:slot+m.runs])
		slot += m.runs
		dst := labels[row*w : (row+1)*w]
		var pending uint32
		for _, label := range runs {
			pending |= label
		}
		switch {
		case fast:
			band.WriteBounds(dst, m.bounds, runs)
		case m.runs*shortRuns > w:
			fillShortRuns(dst, m.mask, runs)
		default:
			runBounds(m.bounds, m.mask)
			band.WriteBounds(dst, m.bounds, runs)
		}
		if pending&band.PendingFlag != 0 {
			b.MarkPending(row)
		}
	}
}

// shortRuns is the mean run length (gaps included) under which a row is
// written eight entries at a time from its mask (fillShortRuns) rather
// than run by run, where band.WriteBounds has no fast path.
const shortRuns = 8

// fillShortRuns writes a row of short runs and gaps of the set bits of
// mask (whose last word is zero), labels[k] over the k-th run, 0 between:
// where a bit differs from the one before a gap or run starts, and each is
// written eight entries at a time from its start, overshooting into what
// follows, which the next gap or run then overwrites (runs and gaps
// alternate, none empty). Those within eight entries of the row's end are
// written exactly.
func fillShortRuns(dst []uint32, mask []uint64, labels []uint32) {
	w := len(dst)
	from, k := 0, 0
	var carry uint64
	inRun := false
	for i, e := range mask {
		change := e ^ (e<<1 | carry)
		carry = e >> 63
		for ; change != 0; change &= change - 1 {
			x := i<<6 | bits.TrailingZeros64(change)
			var v uint32 // a gap ends at x
			if inRun {
				v = labels[k] // a run ends at x
				k++
			}
			inRun = !inRun
			if x+8 > w {
				band.Fill32(dst[from:x], v)
				from = x
				continue
			}
			for y := from; y < x; y += 8 {
				c := dst[y : y+8 : y+8]
				c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7] = v, v, v, v, v, v, v, v
			}
			from = x
		}
	}
	band.Clear32(dst[from:])
}
