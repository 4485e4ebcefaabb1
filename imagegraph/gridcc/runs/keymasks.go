package runs

import (
	"math/bits"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/internal/band"
)

// keyRows32 is implemented by sources whose rows lie in memory as 32-bit
// keys (the multilabel keys of their runs): KeyRow32 returns row's keys,
// or nil for every row when the source has none.
type keyRows32 interface {
	KeyRow32(row int) []uint32
}

// A volume at 26-connectivity whose keys lie in memory is linked from
// masks of equal keys, compared eight at a time, rather than by walking
// the runs of the four rows that a row touches. Three facts keep the
// contacts few:
//
//   - Two touching rows (the row above, or the same row of the plane
//     before, both at diagonal reach) join a run to another run only
//     where a voxel of one equals the voxel beside it in the other (the
//     first of each stretch of equal voxels of the same two runs
//     suffices), or diagonally at the run's first or last voxel.
//   - A voxel p=(x, y, z) needs no look at row y-1 of plane z-1 when
//     (x, y-1, z) or (x, y, z-1) holds its key: whatever of its key p
//     touches there touches that voxel, whose own links join it.
//   - Likewise p needs no look at row y+1 of plane z-1 when (x, y, z-1)
//     or (x, y+1, z) holds its key (that voxel's row links with row y+1
//     of plane z-1 when its turn comes).
//
// In label maps few voxels lie on a key's border in z and in y at once,
// so rows y-1 and y+1 of the plane before are mostly not looked at.

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

// equalMasks writes into masks (one bit a column, the bits past len(a)
// zero) where a and b (as long as a) hold equal keys.
func equalMasks(a, b []uint32, masks []uint64) {
	n := len(a)
	b = b[:n]
	whole := 0
	if n >= 64 && band.DiffMasks32(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), masks[:n/64]) {
		whole = n / 64
		for i := range whole {
			masks[i] = ^masks[i]
		}
	}
	for i := whole; i < len(masks); i++ {
		lo := i << 6
		hi := min(lo+64, n)
		var m uint64
		for x := lo; x < hi; x++ {
			m |= b2u64(a[x] == b[x]) << uint(x-lo)
		}
		masks[i] = m
	}
}

// b2u64 returns 1 for true and 0 for false.
func b2u64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// maskLinker links the rows of one band from masks of equal keys; its
// slices are scratch of a row's words.
type maskLinker struct {
	width                 int
	zeros                 []uint32
	nz, eqU, eqD, eqN     []uint64
	fresh, other          []uint64
	cur, up, down, dm, dp maskRow
}

// newMaskLinker returns the scratch for rows of width keys.
func newMaskLinker(width int) *maskLinker {
	words := edgeWords(width)
	return &maskLinker{
		width: width,
		zeros: make([]uint32, width),
		nz:    make([]uint64, words), eqU: make([]uint64, words),
		eqD: make([]uint64, words), eqN: make([]uint64, words),
	}
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
	words := len(m.nz)
	layer := l.layer
	c := layerRow(cur, y, l.keys, z*layer+y, words)
	for k := range runs {
		s := c.first + uint32(k)
		labels[s-1] = s
	}
	equalMasks(c.keys, m.zeros, m.nz)
	for i := range m.nz {
		m.nz[i] = ^m.nz[i]
	}
	m.nz[words-1] &= 1<<uint(w&63) - 1 // past the row (w&63 is 0: a whole word past it)
	fresh, other := m.fresh[:0], m.other[:0]
	var up, down *maskRow
	if y > 0 {
		m.up = layerRow(cur, y-1, l.keys, z*layer+y-1, words)
		up = &m.up
		equalMasks(c.keys, up.keys, m.eqU)
		fresh = verticalContacts(fresh, &c, up, m.eqU, m.nz)
	} else {
		clear(m.eqU)
	}
	hooks := band.LinkFreshContacts(labels, fresh)
	if up != nil {
		other = diagonalContacts(other, &c, up, runs, w)
	}
	if below != nil {
		m.down = layerRow(below, y, l.keys, (z-1)*layer+y, words)
		down = &m.down
		equalMasks(c.keys, down.keys, m.eqD)
		other = verticalContacts(other, &c, down, m.eqD, m.nz)
		other = diagonalContacts(other, &c, down, runs, w)
		if y > 0 {
			m.dm = layerRow(below, y-1, l.keys, (z-1)*layer+y-1, words)
			for i := range words {
				m.eqN[i] = m.nz[i] &^ (m.eqU[i] | m.eqD[i])
			}
			other = crossContacts(other, &c, &m.dm, m.eqN, w)
		}
		if y+1 < layer {
			m.dp = layerRow(below, y+1, l.keys, (z-1)*layer+y+1, words)
			equalMasks(c.keys, l.keys.KeyRow32(z*layer+y+1), m.eqN)
			for i := range words {
				m.eqN[i] = m.nz[i] &^ (m.eqN[i] | m.eqD[i])
			}
			other = crossContacts(other, &c, &m.dp, m.eqN, w)
		}
	}
	m.fresh, m.other = fresh, other
	return hooks + band.LinkContacts(labels, other)
}

// verticalContacts appends to found, as slot pairs (run<<32 | touching
// run), the runs of ref that the runs of c touch face to face: one pair
// for each stretch of columns where the two rows hold the same nonzero
// key in the same two runs (eq: equal keys, nz: nonzero keys of c). The
// pairs come in column order, so each run's together.
func verticalContacts(found []uint64, c, ref *maskRow, eq, nz []uint64) []uint64 {
	var carry uint64
	for i := range eq {
		e := eq[i] & nz[i]
		first := e&^(e<<1|carry) | e&(c.starts[i]|ref.starts[i])
		carry = e >> 63
		for ; first != 0; first &= first - 1 {
			x := i<<6 | bits.TrailingZeros64(first)
			found = append(found, uint64(c.slot(x))<<32|uint64(ref.slot(x)))
		}
	}
	return found
}

// diagonalContacts appends to found the runs of ref that a run of c
// (runs) touches only diagonally: at its first column s, a run of its key
// ending at s-1, and at its last e-1, one starting at e.
func diagonalContacts(found []uint64, c, ref *maskRow, runs []grid.KeyRun[uint32], w int) []uint64 {
	keys := ref.keys[:w]
	for k, r := range runs {
		s, e := int(r.Start), int(r.End)
		slot := uint64(c.first+uint32(k)) << 32
		if s > 0 && keys[s-1] == r.Key && keys[s] != r.Key {
			found = append(found, slot|uint64(ref.slot(s-1)))
		}
		if e < w && keys[e] == r.Key && keys[e-1] != r.Key {
			found = append(found, slot|uint64(ref.slot(e)))
		}
	}
	return found
}

// crossContacts appends to found the runs of ref that the voxels of c
// marked in need touch: those of equal key at columns x-1, x and x+1.
func crossContacts(found []uint64, c, ref *maskRow, need []uint64, w int) []uint64 {
	keys, own := ref.keys[:w], c.keys[:w]
	for i, bitsLeft := range need {
		for ; bitsLeft != 0; bitsLeft &= bitsLeft - 1 {
			x := i<<6 | bits.TrailingZeros64(bitsLeft)
			key := own[x]
			var slot uint64
			for u := max(x-1, 0); u <= min(x+1, w-1); u++ {
				if keys[u] != key {
					continue
				}
				if slot == 0 {
					slot = uint64(c.slot(x)) << 32
				}
				found = append(found, slot|uint64(ref.slot(u)))
			}
		}
	}
	return found
}

// linkBandMasks is LinkBand for a volume at 26-connectivity whose keys lie
// in memory (l.keys).
func linkBandMasks(l *runLabeler[uint32], b *band.Band) {
	labels := l.labels
	src := l.reader()
	cur, prev := l.newLayer(), l.newLayer()
	m := newMaskLinker(l.width)
	start := b.First * l.width
	next := uint32(start) + 1
	hooks := 0
	words := edgeWords(l.width)
	b.Edges = band.GetWords(2 * words * (b.End - b.First))
	b.EdgeRuns = make([]int32, b.End-b.First)
	z0 := b.First / l.layer
	for z := z0; z < b.End/l.layer; z++ {
		var below *runLayer[uint32]
		if z > z0 {
			below = prev
		}
		for y := range l.layer {
			next = l.loadRow(src, cur, z, y, next)
			runs, _ := cur.row(y)
			runs = runs[:len(runs)-linkWindow]
			row := (z-z0)*l.layer + y
			hooks += m.linkRow(l, labels, runs, cur, below, z, y)
			b.EdgeRuns[row] = keepEdges(b.Edges[2*row*words:(2*row+2)*words], runs, l.width)
		}
		cur, prev = prev, cur
	}
	b.MoveSlots(labels, l.width, int(next-1)-start, hooks)
}
