package grid

import (
	"math/bits"

	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// bundleScan holds a bundle: two rows (top, bottom) of two consecutive
// planes (front, back). At 26-connectivity every voxel of a bundle touches
// every voxel of the bundle in the next column, so a maximal run of columns
// holding any foreground voxel is one vertex. The embedded pairScan holds
// the runs (either is the OR of the four rows); its top and bottom are set
// to the rows that face a neighbouring bundle before each contacts call.
type bundleScan struct {
	pairScan
	rows                             [4][]uint64 // front top, front bottom, back top, back bottom
	front, back, topRows, bottomRows []uint64    // ORs of rows facing each neighbour
	class                            []uint8     // per run, in column order: the first row holding a voxel
}

func newBundleScan(width int) *bundleScan {
	n := maskWords(width) + 1
	b := &bundleScan{pairScan: *newPairScan(width), class: make([]uint8, (width+1)/2)}
	for i := range b.rows {
		b.rows[i] = make([]uint64, n)
	}
	b.front, b.back = make([]uint64, n), make([]uint64, n)
	b.topRows, b.bottomRows = make([]uint64, n), make([]uint64, n)
	return b
}

// pairViews are scratch copies of pair scans whose facing rows are
// replaced, for contacts between bundles.
type pairViews struct{ cur, below pairScan }

// bundleLabeler holds one LabelBinary26 run: bands of whole plane pairs.
type bundleLabeler struct {
	width, height, depth int
	src                  MaskRows
	labels               []uint32
	narrow               *narrowRows // where the voxels' uint16 labels go (setNarrow)
	keep                 bool        // the first pass keeps the slots where it numbers them (keepSlots)
}

// load reads the bundle of rows y, y+1 of planes z, z+1 (missing rows and
// planes empty), finds its runs and the class of each.
func (l *bundleLabeler) load(m *bundleScan, y, z int) {
	n := maskWords(l.width)
	for i := range m.rows {
		row, plane := y+i%2, z+i/2
		dst := m.rows[i][:n]
		if row < l.height && plane < l.depth {
			l.src.Mask(plane*l.height+row, dst)
			if tail := l.width & 63; tail != 0 {
				dst[n-1] &= uint64(1)<<tail - 1
			}
		} else {
			clear(dst)
		}
	}
	ft, fb, bt, bb := m.rows[0][:n], m.rows[1][:n], m.rows[2][:n], m.rows[3][:n]
	for i := range n {
		m.front[i], m.back[i] = ft[i]|fb[i], bt[i]|bb[i]
		m.topRows[i], m.bottomRows[i] = ft[i]|bt[i], fb[i]|bb[i]
		m.either[i] = m.front[i] | m.back[i]
	}
	// Runs, and per run the first row class holding a voxel: adding a row
	// to either carries out at the end of each run holding a voxel there.
	var shift uint64
	var carry [4]uint64
	runs := 0
	for i, e := range m.either[:len(m.ends)] {
		end := (e<<1 | shift) &^ e
		shift = e >> 63
		var has [4]uint64
		for c := range 4 {
			var sum uint64
			sum, carry[c] = bits.Add64(e, m.rows[c][i], carry[c])
			has[c] = sum &^ e
		}
		m.ends[i] = end
		m.rank[i] = uint32(runs)
		for word := end; word != 0; word &= word - 1 {
			bit := word & -word
			c := uint8(3)
			switch {
			case has[0]&bit != 0:
				c = 0
			case has[1]&bit != 0:
				c = 1
			case has[2]&bit != 0:
				c = 2
			}
			m.class[runs] = c
			runs++
		}
	}
	m.runs = runs
}

// numberPlanePair gives the runs of a plane pair's bundles their slots in
// memory order of their first voxels: front plane before back plane, then
// bundle by bundle, top row before bottom row, then by column. It returns
// the slot after the last.
func numberPlanePair(bundles []*bundleScan, next uint32) uint32 {
	for plane := range 2 {
		for _, m := range bundles {
			for row := range 2 {
				c := uint8(2*plane + row)
				for k, cls := range m.class[:m.runs] {
					if cls == c {
						m.slot[k] = next
						next++
					}
				}
			}
		}
	}
	return next
}

// planePairContacts appends the contacts of bundle y of cur: with the
// bundle above it in the same plane pair (top rows against bottom rows)
// when above is set, and with the bundles y-1, y and y+1 of the plane
// pair before (front plane against back plane, and the diagonal rows)
// when below is not nil.
func planePairContacts(buf []uint64, cur []*bundleScan, below []*bundleScan, y int, above bool, v *pairViews) []uint64 {
	m := cur[y]
	if above && y > 0 {
		v.cur, v.below = m.pairScan, cur[y-1].pairScan
		v.cur.top, v.below.bottom = m.topRows, cur[y-1].bottomRows
		buf = contacts(buf, &v.cur, &v.below)
	}
	if below == nil {
		return buf
	}
	v.cur, v.below = m.pairScan, below[y].pairScan
	v.cur.top, v.below.bottom = m.front, below[y].back
	buf = contacts(buf, &v.cur, &v.below)
	if y > 0 {
		v.cur, v.below = m.pairScan, below[y-1].pairScan
		v.cur.top, v.below.bottom = m.rows[0], below[y-1].rows[3]
		buf = contacts(buf, &v.cur, &v.below)
	}
	if y+1 < len(below) {
		v.cur, v.below = m.pairScan, below[y+1].pairScan
		v.cur.top, v.below.bottom = m.rows[1], below[y+1].rows[2]
		buf = contacts(buf, &v.cur, &v.below)
	}
	return buf
}

// newBundles allocates the scans of one plane pair.
func (l *bundleLabeler) newBundles() []*bundleScan {
	b := make([]*bundleScan, (l.height+1)/2)
	for i := range b {
		b[i] = newBundleScan(l.width)
	}
	return b
}

// loadPlanePair loads every bundle of planes z, z+1, numbers their runs
// from next and fills their column tables; it returns the next slot.
func (l *bundleLabeler) loadPlanePair(bundles []*bundleScan, z int, next uint32) uint32 {
	for y, m := range bundles {
		l.load(m, 2*y, z)
	}
	next = numberPlanePair(bundles, next)
	for _, m := range bundles {
		m.fillColumns()
	}
	return next
}

// LinkBand is the first pass over a band of plane pairs, as binary8's.
func (l *bundleLabeler) LinkBand(b *band.Band) {
	w, h := l.width, l.height
	labels := l.labels
	cur, prev := l.newBundles(), l.newBundles()
	var views pairViews
	buf := make([]uint64, 0, 4*(w+1))
	start := b.First * w
	next := uint32(start) + 1
	hooks := 0
	for z := b.First / h; z < b.End/h; z += 2 {
		first := next
		next = l.loadPlanePair(cur, z, next)
		for s := first; s < next; s++ {
			labels[s-1] = s
		}
		var below []*bundleScan
		if z > b.First/h {
			below = prev
		}
		for y := range cur {
			buf = planePairContacts(buf[:0], cur, below, y, true, &views)
			hooks += band.LinkContacts(labels, buf)
		}
		cur, prev = prev, cur
	}
	placeSlots(b, labels, w, int(next-1)-start, hooks, l.keep)
}

// MergeBorder joins the first plane pair of band b with the last plane
// pair of band b-1.
func (l *bundleLabeler) MergeBorder(bands []band.Band, b int) {
	h := l.height
	cur, below := l.newBundles(), l.newBundles()
	z := bands[b].First / h
	l.loadPlanePair(cur, z, uint32(bands[b].Slots)+1)
	runs := 0
	for y, m := range below {
		l.load(m, 2*y, z-2)
		runs += m.runs
	}
	numberPlanePair(below, uint32(bands[b-1].Slots+bands[b-1].Runs-runs)+1)
	for _, m := range below {
		m.fillColumns()
	}
	var views pairViews
	var found []uint64
	for y := range cur {
		found = planePairContacts(found[:0], cur, below, y, false, &views)
		band.JoinContacts(l.labels, bands, l.width, found)
	}
}

// LabelBand is the second pass, as binary8's, a plane pair at a time: the
// labels of all its runs are read before any of its voxels is written, so
// no slot is overwritten before it is read.
func (l *bundleLabeler) LabelBand(b *band.Band, cross *band.CrossLabels) {
	w, h := l.width, l.height
	labels := l.labels
	if l.narrow == nil {
		b.MoveKeptSlots(labels, w) // the pixels' labels go over them
	}
	band.LabelSlots(labels, b, cross)
	lo := b.Slots
	bundles := l.newBundles()
	columns := make([][]uint32, len(bundles))
	for i := range columns {
		columns[i] = make([]uint32, w+8)
	}
	var columns16 [][]uint16
	var out *rowWindow
	if l.narrow != nil {
		out = l.narrow.window(b.First)
		defer out.flush()
		columns16 = make([][]uint16, len(bundles))
		for i := range columns16 {
			columns16[i] = make([]uint16, w+8)
		}
	}
	pending := make([]bool, len(bundles))
	slot := uint32(lo) + 1
	for z := b.First / h; z < b.End/h; z += 2 {
		for y, m := range bundles {
			l.load(m, 2*y, z)
		}
		slot = numberPlanePair(bundles, slot)
		if l.narrow != nil {
			l.writeBundles16(bundles, columns16, z, out)
			continue
		}
		for y, m := range bundles {
			pending[y] = runColumns(m.ends, m.slot, labels, columns[y])&band.PendingFlag != 0
		}
		for y, m := range bundles {
			for plane := range 2 {
				pz := z + plane
				if pz >= l.depth {
					break
				}
				row := pz*h + 2*y
				top, topMask := labels[row*w:(row+1)*w], m.rows[2*plane]
				bottom, bottomMask := top, topMask // a last odd row: written twice
				if 2*y+1 < h {
					bottom, bottomMask = labels[(row+1)*w:(row+2)*w], m.rows[2*plane+1]
				}
				fillRows(top, bottom, columns[y], topMask, bottomMask)
				if pending[y] {
					b.MarkPending(row)
					if 2*y+1 < h {
						b.MarkPending(row + 1)
					}
				}
			}
		}
	}
}

// writeBundles16 writes the uint16 labels of the plane pair from plane z
// (the bundles loaded and numbered) into out: those of all its runs are
// read before any voxel is written.
func (l *bundleLabeler) writeBundles16(bundles []*bundleScan, columns [][]uint16, z int, out *rowWindow) {
	w, h := l.width, l.height
	lo := z * h
	narrow := out.span(lo, min(z+2, l.depth)*h)
	for y, m := range bundles {
		runColumns16(m.ends, m.slot, l.labels, columns[y])
	}
	for y, m := range bundles {
		for plane := range 2 {
			pz := z + plane
			if pz >= l.depth {
				break
			}
			row := pz*h + 2*y - lo
			top, topMask := narrow[row*w:(row+1)*w], m.rows[2*plane]
			bottom, bottomMask := top, topMask // a last odd row: written twice
			if 2*y+1 < h {
				bottom, bottomMask = narrow[(row+1)*w:(row+2)*w], m.rows[2*plane+1]
			}
			fillRows16(top, bottom, columns[y], topMask, bottomMask)
		}
	}
}
