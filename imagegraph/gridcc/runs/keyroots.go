package runs

import (
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// keyRoots maps the keys of a layer's runs to the root that all runs of
// that key share, or to 0 when they lie in several components (at the
// time the table was made; later hooks only join components). An open
// addressing table; key 0 (background) marks empty entries.
type keyRoots[K grid.GridKey] struct {
	keys  []K
	roots []uint32
	shift uint
}

// reset empties the table for up to n keys.
func (t *keyRoots[K]) reset(n int) {
	size, shift := 16, uint(60)
	for size < 2*n {
		size, shift = 2*size, shift-1
	}
	if cap(t.keys) < size {
		t.keys, t.roots = make([]K, size), make([]uint32, size)
	}
	t.keys, t.roots, t.shift = t.keys[:size], t.roots[:size], shift
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

// get returns the root shared by the runs of key (0 when several) and
// whether the layer has runs of key.
func (t *keyRoots[K]) get(key K) (uint32, bool) {
	i := t.slot(key)
	return t.roots[i], t.keys[i] != 0
}

// fill records the roots of all runs of layer p, with path halving. A
// run whose parent is the root recorded for its key (in label maps, most:
// a run is hooked straight to a root), or whose key has several, needs no
// look-up: the root's entry, far back, is not read.
func (t *keyRoots[K]) fill(labels []uint32, p *runLayer[K]) {
	t.reset(p.count)
	for y := range len(p.slot) {
		runs, first := p.row(y)
		for k, r := range runs[:len(runs)-linkWindow] {
			s := first + uint32(k)
			i := t.slot(r.Key)
			if t.keys[i] == r.Key && (t.roots[i] == labels[s-1] || t.roots[i] == 0) {
				continue
			}
			root := band.Find(labels, s)
			switch {
			case t.keys[i] == 0:
				t.keys[i], t.roots[i] = r.Key, root
			case t.roots[i] != root:
				t.roots[i] = 0
			}
		}
	}
}

// needBelow appends to some the indices of the runs of cur (slots from
// first) that need contact with the layer before, whose keys t holds, and
// returns it; it sets done[k] for the others. A run needs none when done
// is set already, when the layer before has no run of its key, or when it
// is joined already to the one root that all runs of its key there share
// (its parent is that root, or their roots are the same): whatever it
// touches there has its key, so is joined already.
func (t *keyRoots[K]) needBelow(some []int32, done []bool, labels []uint32, cur []grid.KeyRun[K], first uint32) []int32 {
	for k, r := range cur {
		if done[k] {
			continue
		}
		root, ok := t.get(r.Key)
		s := first + uint32(k)
		if !ok || root != 0 && (labels[s-1] == root || band.Find(labels, root) == band.Find(labels, s)) {
			done[k] = true
			continue
		}
		some = append(some, int32(k))
	}
	return some
}
