package ecl

// gridRun is a maximal horizontal run of equal nonzero keys: pixels
// [start, end) of a row.
type gridRun[K GridKey] struct {
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
func (g *gridLabeler[K]) labelBand2D(b *gridBand) {
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
	for y := b.first; y < b.end; y++ {
		g.src.Keys(y, keys)
		cur = appendRuns(cur[:0], keys, bounds)
		if y == b.first {
			prev = prev[:0]
		}
		row := g.labels[y*w : y*w+w]
		roots += linkRuns(g.labels, row, prev, cur, uint32(y*w)+1, uint32(w), diagonal)
		prev, cur = cur, prev
	}
	b.roots = roots
}

// appendRuns appends the runs of keys (zero keys are background) to runs.
// bounds is scratch space of len(keys)+1.
func appendRuns[K GridKey](runs []gridRun[K], keys []K, bounds []int32) []gridRun[K] {
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

// linkRuns writes the parents of a row's pixels: background 0, the first
// pixel of each run its first joined pixel above (or itself), the others
// the run's first pixel; runs above that also join are hooked. base is the
// index+1 of the row's first pixel, w the row length, and diagonal 1 when
// diagonal neighbours count (8-connectivity), else 0. It returns the roots
// made minus the roots hooked away.
func linkRuns[K GridKey](labels, row []uint32, prev, cur []gridRun[K], base, w uint32, diagonal int32) int {
	clear(row)
	roots := 0
	up := base - w
	j := 0
	for _, r := range cur {
		// Runs above touch r when they overlap [start-diagonal, end+diagonal).
		for j < len(prev) && prev[j].end+diagonal <= r.start {
			j++
		}
		var parent uint32
		for i := j; i < len(prev) && prev[i].start < r.end+diagonal; i++ {
			if prev[i].key != r.key {
				continue
			}
			u := up + uint32(prev[i].start)
			if parent == 0 {
				parent = u
			} else if union(labels, parent, u) != 0 {
				roots--
			}
		}
		first := base + uint32(r.start)
		if parent == 0 {
			parent = first
			roots++
		}
		row[r.start] = parent
		for x := r.start + 1; x < r.end; x++ {
			row[x] = first
		}
	}
	return roots
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
