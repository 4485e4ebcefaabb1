package runs

import (
	"math/bits"
	"slices"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// keyRows32 is implemented by sources whose rows lie in memory as 32-bit
// keys (the multilabel keys of their runs): KeyRow32 returns row's keys,
// or nil for every row when the source has none.
type keyRows32 interface {
	KeyRow32(row int) []uint32
}

// A volume at 26-connectivity whose keys lie in memory is linked from
// masks of equal keys, compared eight at a time, rather than by walking
// the runs of the four rows that a row touches. These facts keep the
// contacts few:
//
//   - Two touching rows (the row above, or the same row of the plane
//     before, both at diagonal reach) join a run to another run only
//     where a voxel of one equals the voxel beside it in the other (the
//     first of each stretch of equal voxels of the same two runs
//     suffices), or diagonally at the run's first or last voxel, where
//     the other row's key differs from the run's at both that column and
//     the one beside it.
//   - A voxel p=(x, y, z) needs no look at row y-1 of plane z-1 when
//     (x, y-1, z) or (x, y, z-1) holds its key: whatever of its key p
//     touches there touches that voxel, whose own links join it. For the
//     same reason no voxel needs a look at a column j of that row whose
//     key equals that of (j, y-1, z) or (j, y, z-1).
//   - Likewise p needs no look at row y+1 of plane z-1 when (x, y, z-1)
//     or (x, y+1, z) holds its key (that voxel's row links with row y+1
//     of plane z-1 when its turn comes), nor at a column j of that row
//     whose key equals that of (j, y, z-1) or (j, y+1, z).
//   - p and the voxel below it in plane z-1 are joined already when the
//     voxels above both, in row y-1, hold their key: the row above links
//     with its plane before, and plane z-1 within itself.
//
// In label maps few voxels lie on a key's border in z and in y at once,
// so rows y-1 and y+1 of the plane before are mostly not looked at. The
// masks of the plane before are kept for these tests, and a row's masks
// comparing it with the row above are the row above's comparing it with
// its next.

// maskRow is a row of keys with the positions of its runs: bit x of
// starts is set where a run of nonzero keys starts, ranks[i] counts the
// runs starting before word i, and first is the slot of the row's first
// run.
type maskRow struct {
	keys   []uint32
	starts []uint64
	ranks  []uint32
	first  uint32
}

// slot returns the slot of the run holding column x, which must hold a
// nonzero key.
func (m *maskRow) slot(x int) uint32 {
	i := x >> 6
	below := m.starts[i] & (2<<uint(x&63) - 1)
	return m.first + m.ranks[i] + uint32(bits.OnesCount64(below)) - 1
}

// startsAt returns 1 when a run of nonzero keys starts at column x, else
// 0.
func (m *maskRow) startsAt(x int) uint64 { return m.starts[x>>6] >> uint(x&63) & 1 }

// markStarts sets the run starts and ranks of a row of runs.
func markStarts[K grid.GridKey](starts []uint64, ranks []uint32, runs []grid.KeyRun[K]) {
	clear(starts)
	for _, r := range runs {
		starts[r.Start>>6] |= 1 << uint(r.Start&63)
	}
	n := uint32(0)
	for i, w := range starts {
		ranks[i] = n
		n += uint32(bits.OnesCount64(w))
	}
}

// keyMasks writes into out, four words for each 64 columns of c: the
// columns where c's key is nonzero, and where it equals the row above's,
// d's and n's key (d and n as long as c); bits past len(c) are zero. The
// words comparing c with the row above are those of above, the masks of
// that row, comparing it with its next row, c; with no row above (above
// nil) they are zero.
func keyMasks(c, d, n []uint32, out, above []uint64) {
	w := len(c)
	d, n = d[:w], n[:w]
	i := 0
	if w >= 64 {
		i = keyMasksWords(unsafe.Pointer(&c[0]), unsafe.Pointer(&d[0]), unsafe.Pointer(&n[0]), out[:4*(w/64)])
	}
	for ; 4*i < len(out); i++ {
		lo := i << 6
		hi := min(lo+64, w)
		var nz, ed, en uint64
		for x := lo; x < hi; x++ {
			k, b := c[x], uint(x-lo)
			nz |= b2u64(k != 0) << b
			ed |= b2u64(k == d[x]) << b
			en |= b2u64(k == n[x]) << b
		}
		o := out[4*i : 4*i+4 : 4*i+4]
		o[maskNonzero], o[maskDown], o[maskNext] = nz, ed, en
	}
	for i := range len(out) / 4 {
		out[4*i+maskUp] = 0
		if above != nil {
			out[4*i+maskUp] = above[4*i+maskNext]
		}
	}
}

// b2u64 returns 1 for true and 0 for false.
func b2u64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// maskLinker links the rows of one band from masks of equal keys.
type maskLinker struct {
	width int
	// masks holds keyMasks' words for the row being linked (rows[0]):
	// nonzero keys, keys equal to the row above's, to the same row's of
	// the plane before and to the next row's.
	masks         []uint64
	fresh, other  []uint64
	cur, up, down maskRow
	side          maskRow
	// rows holds the masks of the row being linked and of the row above.
	// ups holds the words of the masks comparing each row with the row
	// above, edgeWords(width) a row, of this plane (ups[0]) and of the
	// plane before (ups[1]); before tells whether the plane before was
	// linked from masks. zeros stands in for words that are missing.
	rows   [2][]uint64
	ups    [2][]uint64
	before bool
	zeros  []uint64
}

// The masks of a word, at 4*word+maskNonzero and so on.
const (
	maskNonzero = iota
	maskUp
	maskDown
	maskNext
)

// newMaskLinker returns the scratch for rows of width keys.
func newMaskLinker(width, layer int) *maskLinker {
	words := edgeWords(width)
	return &maskLinker{
		width: width,
		rows:  [2][]uint64{make([]uint64, 4*words), make([]uint64, 4*words)},
		ups:   [2][]uint64{make([]uint64, layer*words), make([]uint64, layer*words)},
		zeros: make([]uint64, words),
	}
}

// nextPlane readies the linker for the rows of the next plane; masked
// tells whether the plane before it was linked from masks.
func (m *maskLinker) nextPlane(masked bool) {
	m.ups[0], m.ups[1] = m.ups[1], m.ups[0]
	m.before = masked
}

// layerRow returns row y of layer p as a maskRow, its keys read from
// keys (the grid's row row).
func layerRow[K grid.GridKey](p *runLayer[K], y int, keys keyRows32, row, words int) maskRow {
	return maskRow{keys: keys.KeyRow32(row), starts: p.starts[y*words : (y+1)*words], ranks: p.ranks[y*words : (y+1)*words], first: p.slot[y]}
}

// linkRow makes every run of row y of layer cur (runs, no sentinels) a
// root and hooks it to the runs of equal key it touches in row y-1 and,
// when below is not nil, in rows y-1, y and y+1 of below, the layer
// before. It returns the number of roots hooked away.
func (m *maskLinker) linkRow(l *runLabeler[uint32], labels []uint32, runs []grid.KeyRun[uint32], cur, below *runLayer[uint32], z, y int) int {
	w := m.width
	words := edgeWords(w)
	layer := l.layer
	c := layerRow(cur, y, l.keys, z*layer+y, words)
	for k := range runs {
		s := c.first + uint32(k)
		labels[s-1] = s
	}
	// Rows that are missing compare with the row itself; their masks
	// are not read.
	d, n := c.keys, c.keys
	if y > 0 {
		m.up = layerRow(cur, y-1, l.keys, z*layer+y-1, words)
	}
	if below != nil {
		m.down = layerRow(below, y, l.keys, (z-1)*layer+y, words)
		d = m.down.keys
	}
	if y+1 < layer {
		n = l.keys.KeyRow32(z*layer + y + 1)
	}
	m.rows[0], m.rows[1] = m.rows[1], m.rows[0]
	m.masks = m.rows[0]
	var above []uint64 // the row above's masks, when it has them
	if y > 0 {
		above = m.rows[1]
	}
	keyMasks(c.keys, d, n, m.masks, above)
	ups := m.ups[0][y*words : (y+1)*words]
	for i := range ups {
		ups[i] = m.masks[4*i+maskUp]
	}
	// Face contacts come at most one a column, diagonal ones two a run
	// for each row, those with rows y-1 and y+1 before three a column.
	need := 2*w + 4*len(runs) + 6*w + 8
	fresh, other := slices.Grow(m.fresh[:0], w+1), slices.Grow(m.other[:0], need)
	nf, no := 0, 0
	if y > 0 {
		nf = faceContacts(fresh[:cap(fresh)], nf, &c, &m.up, m.masks, maskUp, m.zeros)
		no = diagonalContacts(other[:cap(other)], no, &c, &m.up, m.masks, maskUp)
	}
	hooks := band.LinkFreshContacts(labels, fresh[:nf])
	if below != nil {
		// The plane before's words comparing its row y with row y-1.
		before := m.zeros
		if y > 0 && m.before {
			before = m.ups[1][y*words : (y+1)*words]
		}
		buf := other[:cap(other)]
		no = faceContacts(buf, no, &c, &m.down, m.masks, maskDown, before)
		no = diagonalContacts(buf, no, &c, &m.down, m.masks, maskDown)
		if y > 0 {
			m.side = layerRow(below, y-1, l.keys, (z-1)*layer+y-1, words)
			no = crossContacts(buf, no, &c, &m.side, m.masks, maskUp, above, maskDown, before)
			// Row y-1's contacts with row y of the plane before, linked
			// now that this row's masks compare that row with this one.
			no = crossContacts(buf, no, &m.up, &m.down, above, maskNext, m.masks, maskDown, before)
		}
	}
	m.fresh, m.other = fresh[:0], other[:0]
	return hooks + band.LinkContacts(labels, other[:no])
}

// faceContacts writes into buf from n on, as slot pairs (run<<32 |
// touching run), the runs of ref that the runs of c touch face to face, and
// returns the new n: one pair for each stretch of columns where the two
// rows hold the same nonzero key in the same two runs (masks' words at
// offset eq tell where the keys are equal). The pairs come in column
// order, so each run's together.
//
// With the same row of the plane before as ref, a stretch whose first
// column also holds the key in the row above and in that row's plane
// before is joined already, through them, and is left out: the words of
// before (one a word of masks: the plane before's, comparing its row y
// with row y-1) tell where that row's key equals its row y-1's, and
// masks' words at maskUp where c's equals the row above's. Zero words of
// before leave none out.
func faceContacts(buf []uint64, n int, c, ref *maskRow, masks []uint64, eq int, before []uint64) int {
	var carry uint64
	words := len(masks) / 4
	cStarts, cRanks := c.starts[:words], c.ranks[:words]
	rStarts, rRanks := ref.starts[:words], ref.ranks[:words]
	for i := range words {
		e := masks[4*i+eq] & masks[4*i+maskNonzero]
		first := e&^(e<<1|carry) | e&cStarts[i]
		carry = e >> 63
		first &^= masks[4*i+maskUp] & before[i]
		if first == 0 {
			continue
		}
		// The slots of the runs holding column x of the word, as
		// maskRow.slot finds them.
		cs, rs := cStarts[i], rStarts[i]
		cBase, rBase := uint64(c.first+cRanks[i]-1)<<32, ref.first+rRanks[i]-1
		for ; first != 0; first &= first - 1 {
			below := uint64(2)<<uint(bits.TrailingZeros64(first)) - 1
			buf[n] = cBase + uint64(bits.OnesCount64(cs&below))<<32 | uint64(rBase+uint32(bits.OnesCount64(rs&below)))
			n++
		}
	}
	return n
}

// diagonalContacts writes into buf from n on the runs of ref that a run of
// c touches only diagonally, and returns the new n: at its first column s,
// a run of its key ending at s-1 (ref's key at s differs), and at its last
// e-1, one starting at e. masks' words at offset eq tell where the keys of
// c and ref are equal. Such a contact needs ref's key to differ from c's
// at both columns, the run's end one and the one beside it (there c holds
// another key, or background): the candidates are found word by word from
// the masks, and in label maps few of them touch, so the slot of a
// candidate is found only where it does.
func diagonalContacts(buf []uint64, n int, c, ref *maskRow, masks []uint64, eq int) int {
	keys, own := ref.keys, c.keys[:len(ref.keys)]
	w := len(keys)
	words := len(masks) / 4
	var differPrev uint64 // bit 63: column lo-1 differs
	for i := range words {
		nz, differ := masks[4*i+maskNonzero], ^masks[4*i+eq]
		var nzNext, startsNext, differNext uint64
		if i+1 < words {
			nzNext, startsNext, differNext = masks[4*(i+1)+maskNonzero], c.starts[i+1], ^masks[4*(i+1)+eq]
		}
		both := nz & differ
		left := both & c.starts[i] & (differ<<1 | differPrev>>63)
		// The last column of a run: the next is a run's start, or
		// background (or past the row).
		last := c.starts[i]>>1 | startsNext<<63 | ^(nz>>1 | nzNext<<63)
		right := both & last & (differ>>1 | differNext<<63)
		differPrev = differ
		lo := i << 6
		if lo == 0 {
			left &^= 1 // column 0 has no left neighbour
		}
		for ; left != 0; left &= left - 1 {
			x := lo | bits.TrailingZeros64(left)
			if keys[x-1] == own[x] {
				buf[n] = uint64(c.slot(x))<<32 | uint64(ref.slot(x-1))
				n++
			}
		}
		for ; right != 0; right &= right - 1 {
			x := lo | bits.TrailingZeros64(right)
			if x+1 < w && keys[x+1] == own[x] {
				buf[n] = uint64(c.slot(x))<<32 | uint64(ref.slot(x+1))
				n++
			}
		}
	}
	return n
}

// crossContacts writes into buf from n on the runs of ref (row y-1 or y+1
// of the plane before, for c's row y) that the voxels of c touch where
// they need to, and returns the new n: a voxel needs to where neither the
// same row of the plane before nor the row at offset other of c's masks
// (the row above or the next) holds its key. It writes the runs of its
// key at columns x-1, x and x+1, whose slots differ from x's by the run
// starts at x and x+1; most such voxels touch none, and their slots are
// not found.
//
// A column j of ref whose key equals that of the same row's voxel j in
// this plane (the row at other) or in the plane before joins every voxel
// that touches it to that voxel, and so already to the needy voxel when
// it holds the needy voxel's key; when it does not, neither does ref. So
// only the needy voxels beside a column where ref's key differs from both
// look: the words of sameA at offset a (masks of the row at other,
// comparing it with ref) and those of sameB (one a word of masks: the
// plane before's, comparing its row y with row y-1) tell where it does;
// zero words make every column a candidate.
func crossContacts(buf []uint64, n int, c, ref *maskRow, masks []uint64, other int, sameA []uint64, a int, sameB []uint64) int {
	keys, own := ref.keys, c.keys[:len(ref.keys)]
	last := len(keys) - 1
	words := len(masks) / 4
	differ := ^(sameA[a] | sameB[0])
	var differPrev uint64
	for i := range words {
		var differNext uint64
		if i+1 < words {
			differNext = ^(sameA[4*(i+1)+a] | sameB[i+1])
		}
		near := differ | differ<<1 | differPrev>>63 | differ>>1 | differNext<<63
		need := masks[4*i+maskNonzero] &^ (masks[4*i+maskDown] | masks[4*i+other]) & near
		differPrev, differ = differ, differNext
		for ; need != 0; need &= need - 1 {
			x := i<<6 | bits.TrailingZeros64(need)
			key := own[x]
			left, right := max(x-1, 0), min(x+1, last)
			l := b2u64(x > 0) & b2u64(keys[left] == key)
			m := b2u64(keys[x] == key)
			r := b2u64(x < last) & b2u64(keys[right] == key)
			if l|m|r == 0 {
				continue // mostly: the voxel borders other keys there
			}
			run := uint64(c.slot(x)) << 32
			at := ref.slot(x)
			buf[n] = run | uint64(at-uint32(ref.startsAt(x)))
			n += int(l)
			buf[n] = run | uint64(at)
			n += int(m)
			buf[n] = run | uint64(at+uint32(ref.startsAt(right)))
			n += int(r)
		}
	}
	return n
}

// linkBandMasks is LinkBand for a volume at 26-connectivity whose keys lie
// in memory (l.keys). It links each plane with the plane before either from
// masks (maskLinker) or, where keys seldom border themselves across planes
// (cells: a key's runs there mostly share one root already), by walking the
// runs with the per-key root filter of linkRow; a [pathChooser] picks the
// way from the filter's hit rate.
func linkBandMasks(l *runLabeler[uint32], b *band.Band) {
	labels := l.labels
	src := l.reader()
	cur, prev := l.newLayer(), l.newLayer()
	m := newMaskLinker(l.width, l.layer)
	var refs [4]keyRef[uint32]
	var scratch linkScratch
	var roots keyRoots[uint32]
	var choose pathChooser
	start := b.First * l.width
	next := uint32(start) + 1
	hooks := 0
	words := edgeWords(l.width)
	b.Edges = band.GetWords(2 * words * (b.End - b.First))
	b.EdgeRuns = make([]int32, b.End-b.First)
	z0 := b.First / l.layer
	walk := false
	for z := z0; z < b.End/l.layer; z++ {
		var below *runLayer[uint32]
		m.nextPlane(z > z0 && !walk)
		walk = false
		if z > z0 {
			below = prev
			if walk = choose.walk(); walk {
				roots.fill(labels, prev)
			}
		}
		total, linked := 0, 0
		for y := range l.layer {
			first := next
			next = l.loadRow(src, cur, z, y, next)
			runs, _ := cur.row(y)
			runs = runs[:len(runs)-linkWindow]
			row := (z-z0)*l.layer + y
			if walk {
				hooks += linkRow(labels, runs, first, l.rowRefs(&refs, cur, below, y, true), &roots, &scratch)
				total += len(runs)
				linked += len(scratch.some)
			} else {
				hooks += m.linkRow(l, labels, runs, cur, below, z, y)
			}
			b.EdgeRuns[row] = keepEdges(b.Edges[2*row*words:(2*row+2)*words], runs, l.width)
		}
		if walk {
			choose.record(total, linked)
		}
		cur, prev = prev, cur
	}
	b.MoveSlots(labels, l.width, int(next-1)-start, hooks)
}

// pathChooser picks, plane by plane, how linkBandMasks links a plane with
// the plane before. It walks the runs with the root filter while the
// filter spares all but one run in walkRatio; once a walked plane needs
// more links, the next planes are linked from masks, after which one plane
// is walked again to look: maskPlanes of them, twice as many after each
// look that fails again, up to maxMaskPlanes.
type pathChooser struct {
	masks   int // planes still to link from masks
	stretch int // planes to link from masks after the next failed look
}

const (
	// walkRatio is the least number of runs for each one the root filter
	// must link with the plane before for walking to go on.
	walkRatio = 8
	// maskPlanes and maxMaskPlanes bound the number of planes linked from
	// masks between two walked ones.
	maskPlanes, maxMaskPlanes = 16, 64
)

// walk reports whether the next plane is walked (it counts it when not).
func (c *pathChooser) walk() bool {
	if c.masks > 0 {
		c.masks--
		return false
	}
	return true
}

// record takes the runs of a walked plane and how many of them the root
// filter let through to the plane before.
func (c *pathChooser) record(runs, linked int) {
	if linked*walkRatio <= runs {
		c.stretch = 0
		return
	}
	c.stretch = min(max(2*c.stretch, maskPlanes), maxMaskPlanes)
	c.masks = c.stretch
}
