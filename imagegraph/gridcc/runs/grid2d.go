package runs

import (
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// gridRun is a maximal horizontal run of equal nonzero keys: pixels
// [start, end) of a row.
type gridRun[K grid.GridKey] struct {
	start, end int32
	key        K
}

// labelBand2D runs the init and compute phases over the band's rows, in
// order, with plain loads and stores: the band is this goroutine's alone.
//
// Rows are handled as runs of equal keys. Within a run every pixel's first
// smaller neighbour is its left neighbour, so the run is one component
// whose representative is its first pixel; every pixel points straight at
// it. The run's first pixel points at the first joined run of the row above
// (its first smaller neighbour there), and any further joined runs above
// are hooked to it: the only edges that can join components.
func (g *gridLabeler[K]) labelBand2D(b *band.Band) {
	w := g.shape.Width
	keys := make([]K, w)
	bounds := make([]int32, w+1)
	prev := make([]gridRun[K], 0, w/2+1)
	cur := make([]gridRun[K], 0, w/2+1)
	diagonal := int32(0)
	if g.conn == 8 {
		diagonal = 1
	}
	roots := 0
	refs := make([]runRef[K], 0, 1)
	for y := b.First; y < b.End; y++ {
		g.src.Keys(y, keys)
		cur = appendRuns(cur[:0], keys, bounds)
		base := uint32(y*w) + 1
		refs = refs[:0]
		if y > b.First {
			refs = append(refs, runRef[K]{runs: prev, base: base - uint32(w), slack: diagonal})
		}
		roots += linkRunsRefs(g.labels, g.labels[y*w:y*w+w], refs, cur, base)
		prev, cur = cur, prev
	}
	b.Roots = roots
}

// appendRuns appends the runs of keys (zero keys are background) to runs.
// bounds is scratch space of len(keys)+1.
func appendRuns[K grid.GridKey](runs []gridRun[K], keys []K, bounds []int32) []gridRun[K] {
	// Record where the key changes, without branching on the data.
	n := 1
	bounds[0] = 0
	bounds = bounds[:len(keys)+1]
	for x := 1; x < len(keys); x++ {
		bounds[n] = int32(x)
		step := 0
		if keys[x] != keys[x-1] {
			step = 1
		}
		n += step
	}
	bounds[n] = int32(len(keys))
	for i := range n {
		s := bounds[i]
		if k := keys[s]; k != 0 {
			runs = append(runs, gridRun[K]{s, bounds[i+1], k})
		}
	}
	return runs
}

// mergeRows2D joins row y's pixels with their neighbours in row y-1.
func (g *gridLabeler[K]) mergeRows2D(y int, join func(a, b uint32)) {
	w := g.shape.Width
	prev := make([]K, w)
	cur := make([]K, w)
	g.src.Keys(y-1, prev)
	g.src.Keys(y, cur)
	base := uint32(y*w) + 1
	for x, k := range cur {
		if k == 0 {
			continue
		}
		v := base + uint32(x)
		lo, hi := x, x
		if g.conn == 8 {
			lo, hi = max(x-1, 0), min(x+1, w-1)
		}
		for u := lo; u <= hi; u++ {
			if prev[u] == k {
				join(v, base-uint32(w)+uint32(u))
			}
		}
	}
}
