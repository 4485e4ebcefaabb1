package ecl

import (
	"sort"

	"github.com/cclabel/cclabel/internal/parallel"
)

// VertexRanges calls body on up to threads goroutines at once, each with a
// range [lo, hi) of g's vertices and its index t, such that the ranges
// cover the vertices in order and hold about as many arcs each (a vertex
// counts as one arc more than its degree). Graphs whose arcs crowd into a
// few vertices, like R-MAT's, thus split evenly where ranges of equal
// vertex counts would leave one goroutine most of the work. The offsets must
// be non-decreasing and start at 0.
func (g *Graph) VertexRanges(threads int, body func(t, lo, hi int)) {
	n := g.NumVertices()
	threads = parallel.ClampThreads(threads, n)
	if threads <= 1 {
		if n > 0 {
			body(0, 0, n)
		}
		return
	}
	off := g.Offsets
	total := off[n] + int64(n)
	bounds := make([]int, threads+1)
	for t := 1; t < threads; t++ {
		want := total * int64(t) / int64(threads)
		bounds[t] = max(bounds[t-1], sort.Search(n, func(v int) bool { return off[v]+int64(v) >= want }))
	}
	bounds[threads] = n
	parallel.RangesIndexed(threads, threads, func(t, _, _ int) {
		if lo, hi := bounds[t], bounds[t+1]; lo < hi {
			body(t, lo, hi)
		}
	})
}
