package runs

import (
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/internal/band"
)

// keyRootsMax is the most roots a keyRoots entry lists for a key.
const keyRootsMax = 4

// keyRoots maps the keys of a layer's runs to the roots of the components
// that hold them: up to keyRootsMax of them, or none listed when there are
// more (at the time the table was made; later hooks only join components,
// and needBelow merges the entries that they join). An open addressing
// table; key 0 (background) marks empty entries.
type keyRoots[K grid.GridKey] struct {
	keys  []K
	roots [][keyRootsMax]uint32
	n     []uint8 // roots listed, keyRootsMax+1 for more
	shift uint
}

// reset empties the table for up to n keys.
func (t *keyRoots[K]) reset(n int) {
	size, shift := 16, uint(60)
	for size < 2*n {
		size, shift = 2*size, shift-1
	}
	if cap(t.keys) < size {
		t.keys, t.roots, t.n = make([]K, size), make([][keyRootsMax]uint32, size), make([]uint8, size)
	}
	t.keys, t.roots, t.n, t.shift = t.keys[:size], t.roots[:size], t.n[:size], shift
	clear(t.keys)
}

// slot returns the entry of key: where it is, or the empty entry where
// it would go.
func (t *keyRoots[K]) slot(key K) int {
	mask := len(t.keys) - 1
	i := int(uint64(key) * 0x9e3779b97f4a7c15 >> t.shift)
	for t.keys[i] != key && t.keys[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// listed reports whether entry i lists root a (or lists none: too many).
func (t *keyRoots[K]) listed(i int, a uint32) bool {
	n := int(t.n[i])
	if n > keyRootsMax {
		return true
	}
	for _, r := range t.roots[i][:n] {
		if r == a {
			return true
		}
	}
	return false
}

// fill records the roots of all runs of layer p, with path halving. A
// run whose parent is a root listed for its key (in label maps, most: a
// run is hooked straight to a root), or whose key has too many, needs no
// look-up: the root's entry, far back, is not read.
func (t *keyRoots[K]) fill(labels []uint32, p *runLayer[K]) {
	t.reset(p.count)
	for y := range len(p.slot) {
		runs, first := p.row(y)
		for k, r := range runs[:len(runs)-linkWindow] {
			s := first + uint32(k)
			i := t.slot(r.Key)
			if t.keys[i] == r.Key && t.listed(i, labels[s-1]) {
				continue
			}
			root := band.Find(labels, s)
			switch {
			case t.keys[i] == 0:
				t.keys[i], t.roots[i][0], t.n[i] = r.Key, root, 1
			case !t.listed(i, root):
				if n := t.n[i]; n < keyRootsMax {
					t.roots[i][n] = root
				}
				t.n[i]++
			}
		}
	}
}

// needBelow appends to some the indices of the runs of cur (slots from
// first) that need contact with the layer before, whose keys t holds, and
// to full those of them whose covered entry is false (all of them when
// covered is nil), and returns both; it sets done[k] for the others. A run
// needs none when done is set already, when the layer before has no run of
// its key, or when it is joined already to every component that holds a
// run of its key there: whatever it touches there has its key, so is
// joined already. The roots listed for a key are brought up to date
// (components joined since are listed once) as runs of the key look.
func (t *keyRoots[K]) needBelow(some, full []int32, done, covered []bool, labels []uint32, cur []grid.KeyRun[K], first uint32) ([]int32, []int32) {
	if covered == nil {
		covered = done // false where a run is kept
	}
	for k, r := range cur {
		if done[k] {
			continue
		}
		s := first + uint32(k)
		i := t.slot(r.Key)
		if t.keys[i] == 0 || t.n[i] == 1 && labels[s-1] == t.roots[i][0] || t.joined(i, labels, s) {
			done[k] = true
			continue
		}
		some = append(some, int32(k))
		if !covered[k] {
			full = append(full, int32(k))
		}
	}
	return some, full
}

// joined reports whether slot s is joined to every root that entry i
// lists (false when it lists none), whose list it brings up to date.
func (t *keyRoots[K]) joined(i int, labels []uint32, s uint32) bool {
	n := int(t.n[i])
	if n > keyRootsMax {
		return false
	}
	roots := &t.roots[i]
	m := 0
	for _, r := range roots[:n] {
		r = band.Find(labels, r)
		seen := false
		for _, q := range roots[:m] {
			seen = seen || q == r
		}
		if !seen {
			roots[m] = r
			m++
		}
	}
	t.n[i] = uint8(m)
	return m == 1 && roots[0] == band.Find(labels, s)
}
