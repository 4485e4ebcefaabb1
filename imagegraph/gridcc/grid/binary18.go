package grid

import (
	"math/bits"

	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// pair18Labeler labels a binary volume at 18-connectivity, rows y +
// z*height of src (LabelBinary). Within a plane, 18-connectivity is
// 8-connectivity, so two consecutive rows of a plane are taken together as
// in LabelBinary8: a maximal run of columns holding a foreground voxel in
// either row is one vertex (a 2x2 square of a plane is a clique at 18). A
// pair is linked to the pair above it in its plane as in LabelBinary8, and
// to the pairs of the plane before that can touch it: the pair of the same
// rows (a voxel touches the voxels of the column behind it in both rows,
// and those of the neighbouring columns in its own row), and the pairs
// just above and below that one (the facing rows, column by column).
// Bands are whole planes. As for binary8Labeler, each band's part of
// labels holds its runs' parents until the labeling pass.
type pair18Labeler struct {
	width, height int
	src           MaskRows
	labels        []uint32
	narrow        *narrowRows // where the voxels' uint16 labels go (setNarrow)
	keep          bool        // the first pass keeps the slots where it numbers them (keepSlots)
}

// pairs returns the number of row pairs of a plane.
func (l *pair18Labeler) pairs() int { return (l.height + 1) / 2 }

// planeLabeler returns the binary8Labeler that loads the row pairs of
// plane z.
func (l *pair18Labeler) planeLabeler(z int) *binary8Labeler {
	return &binary8Labeler{width: l.width, height: l.height, src: planeRows{l.src, z * l.height}}
}

// planeRows serves the rows of one plane of a volume.
type planeRows struct {
	src   MaskRows
	first int
}

func (p planeRows) Mask(row int, dst []uint64) { p.src.Mask(p.first+row, dst) }

// newPlane allocates the pair scans of one plane.
func (l *pair18Labeler) newPlane() []*pairScan {
	s := make([]*pairScan, l.pairs())
	for i := range s {
		s[i] = newPairScan(l.width)
	}
	return s
}

// loadPlane loads the pairs of plane z and numbers their runs from next;
// it returns the slot after the last.
func (l *pair18Labeler) loadPlane(scans []*pairScan, z int, next uint32) uint32 {
	p := l.planeLabeler(z)
	for i, m := range scans {
		p.load(m, 2*i)
		m.number(next)
		next += uint32(m.runs)
	}
	return next
}

// planeContacts appends the contacts of pair i of cur: with pair i-1 of
// cur when same is set, and with pairs i-1, i and i+1 of prev, the plane
// before, when prev is not nil.
func planeContacts(buf []uint64, cur, prev []*pairScan, i int, same bool) []uint64 {
	m := cur[i]
	if same && i > 0 {
		buf = contacts(buf, m, cur[i-1])
	}
	if prev == nil {
		return buf
	}
	buf = behindContacts(buf, m, prev[i])
	if i > 0 {
		// Row 2i against row 2i-1 behind it.
		buf = faceContacts(buf, m, prev[i-1], m.top, prev[i-1].bottom)
	}
	if i+1 < len(prev) {
		// Row 2i+1 against row 2i+2 behind it.
		buf = faceContacts(buf, m, prev[i+1], m.bottom, prev[i+1].top)
	}
	return buf
}

// faceContacts appends, as slot pairs (cur<<32 | other), one contact for
// every run of columns set in both a (a row of cur) and b (a row of
// other): each lies in one run of either pair.
func faceContacts(buf []uint64, cur, other *pairScan, a, b []uint64) []uint64 {
	n := len(cur.ends)
	a, b = a[:n], b[:n]
	var prev uint64
	for i := range n {
		both := a[i] & b[i]
		for s := both &^ (both<<1 | prev>>63); s != 0; s &= s - 1 {
			x := i<<6 | bits.TrailingZeros64(s)
			buf = append(buf, uint64(cur.slotAt(x))<<32|uint64(other.slotAt(x)))
		}
		prev = both
	}
	return buf
}

// behindContacts appends the contacts of pair cur with other, the pair of
// the same rows in the plane before: a voxel touches both voxels of the
// column behind it, so every run of columns set in both either-masks
// holds one contact; a voxel also touches the voxels of its own row in
// the columns beside that one, which adds a contact where such a pair of
// voxels is not joined through such a run already (the column beside the
// voxel empty in cur, the voxel's own column empty in other).
func behindContacts(buf []uint64, cur, other *pairScan) []uint64 {
	n := len(cur.ends)
	e, f := cur.either[:n], other.either[:n]
	ct, cb, ot, ob := cur.top[:n], cur.bottom[:n], other.top[:n], other.bottom[:n]
	var prevBoth, prevCT, prevCB, prevF uint64
	for i := range n {
		both := e[i] & f[i]
		for s := both &^ (both<<1 | prevBoth>>63); s != 0; s &= s - 1 {
			x := i<<6 | bits.TrailingZeros64(s)
			buf = append(buf, uint64(cur.slotAt(x))<<32|uint64(other.slotAt(x)))
		}
		prevBoth = both
		var nextCT, nextCB, nextF uint64
		if i+1 < n {
			nextCT, nextCB, nextF = ct[i+1], cb[i+1], f[i+1]
		}
		// Columns x of other with a voxel whose row in cur holds a voxel at
		// x-1 (left) or x+1 (right).
		left := ot[i]&(ct[i]<<1|prevCT>>63) | ob[i]&(cb[i]<<1|prevCB>>63)
		right := ot[i]&(ct[i]>>1|nextCT<<63) | ob[i]&(cb[i]>>1|nextCB<<63)
		fLeft := f[i]<<1 | prevF>>63 // other at x-1
		fRight := f[i]>>1 | nextF<<63
		prevCT, prevCB, prevF = ct[i], cb[i], f[i]
		gap := ^e[i]
		for g := left & gap &^ fLeft; g != 0; g &= g - 1 {
			x := i<<6 | bits.TrailingZeros64(g)
			buf = append(buf, uint64(cur.slotAt(x-1))<<32|uint64(other.slotAt(x)))
		}
		for g := right & gap &^ fRight; g != 0; g &= g - 1 {
			x := i<<6 | bits.TrailingZeros64(g)
			buf = append(buf, uint64(cur.slotAt(x+1))<<32|uint64(other.slotAt(x)))
		}
	}
	return buf
}

// LinkBand is the first pass over a band of planes, as binary8's.
func (l *pair18Labeler) LinkBand(b *band.Band) {
	w, h := l.width, l.height
	labels := l.labels
	cur, prev := l.newPlane(), l.newPlane()
	buf := make([]uint64, 0, 8*(w+1))
	start := b.First * w
	next := uint32(start) + 1
	hooks := 0
	z0 := b.First / h
	for z := z0; z < b.End/h; z++ {
		p := l.planeLabeler(z)
		var below []*pairScan
		if z > z0 {
			below = prev
		}
		for i, m := range cur {
			p.load(m, 2*i)
			m.number(next)
			for s := range uint32(m.runs) {
				labels[next-1+s] = next + s
			}
			next += uint32(m.runs)
			buf = planeContacts(buf[:0], cur, below, i, true)
			hooks += band.LinkContacts(labels, buf)
		}
		cur, prev = prev, cur
	}
	placeSlots(b, labels, w, int(next-1)-start, hooks, l.keep)
}

// MergeBorder joins the first plane of band b with the last plane of band
// b-1.
func (l *pair18Labeler) MergeBorder(bands []band.Band, b int) {
	cur, prev := l.newPlane(), l.newPlane()
	z := bands[b].First / l.height
	l.loadPlane(cur, z, uint32(bands[b].Slots)+1)
	runs := 0
	p := l.planeLabeler(z - 1)
	for i, m := range prev {
		p.load(m, 2*i)
		runs += m.runs
	}
	next := uint32(bands[b-1].Slots+bands[b-1].Runs-runs) + 1
	for _, m := range prev {
		m.number(next)
		next += uint32(m.runs)
	}
	var found []uint64
	for i := range cur {
		found = planeContacts(found[:0], cur, prev, i, false)
		band.JoinContacts(l.labels, bands, l.width, found)
	}
}

// LabelBand is the second pass, binary8's on every plane of the band: a
// pair's pixels only overwrite slots of that pair or earlier ones.
func (l *pair18Labeler) LabelBand(b *band.Band, cross *band.CrossLabels) {
	w, h := l.width, l.height
	labels := l.labels
	if l.narrow == nil {
		b.MoveKeptSlots(labels, w) // the pixels' labels go over them
	}
	band.LabelSlots(labels, b, cross)
	m := newPairScan(w)
	columns := make([]uint32, w+8) // label of each column's run
	var columns16 []uint16
	var out *rowWindow
	if l.narrow != nil {
		columns16 = make([]uint16, w+8)
		out = l.narrow.window(b.First)
		defer out.flush()
	}
	slot := uint32(b.Slots) + 1
	for z := b.First / h; z < b.End/h; z++ {
		p := l.planeLabeler(z)
		for y := 0; y < h; y += 2 {
			p.load(m, y)
			m.number(slot)
			slot += uint32(m.runs)
			if l.narrow != nil {
				row := z*h + y
				m.writePair16(out.span(row, row+p.pairStep(y)), labels, columns16, w, 0, p.hasBottom(y))
			} else {
				m.writePair(b, labels, columns, w, z*h+y, p.hasBottom(y))
			}
		}
	}
}
