package driver

import (
	"runtime"
	"slices"
	"sync"

	"github.com/cclabel/cclabel/ecl"
)

// The host's share of the graph kernels' work, on all cores: checks before
// the upload and the spanning forest after the download.

// FirstUnsortedList returns a vertex whose adjacency list is not sorted
// ascending, or -1, checking ranges of vertices on all cores.
func FirstUnsortedList(g *ecl.Graph) int {
	n := g.NumVertices()
	workers := min(runtime.NumCPU(), max(1, n>>16))
	found := make([]int, workers)
	for w := range found {
		found[w] = -1
	}
	g.VertexRanges(workers, func(w, lo, hi int) {
		for v := lo; v < hi; v++ {
			if !slices.IsSorted(g.Adjacent(v)) {
				found[w] = v
				return
			}
		}
	})
	for _, v := range found {
		if v >= 0 {
			return v
		}
	}
	return -1
}

// Forest gathers a spanning forest from a finished run of the graph
// kernels that record one: every vertex
// that is not its own representative was hooked once, by one successful
// compare-and-swap (or ECL-CC's init), and the kernels stored the edge
// (v, u) of that hook at the vertex, v in the high word. The edges are
// listed by the vertex they hooked, in increasing order, the smaller
// endpoint first, as [ecl.SpanningForest] lists them.
func Forest(parent []int32, edges []uint64) *ecl.Forest {
	n := len(parent)
	workers := min(runtime.NumCPU(), max(1, n>>16))
	counts := make([]int, workers+1)
	var wg sync.WaitGroup
	each := func(f func(w, lo, hi int)) {
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f(w, w*n/workers, (w+1)*n/workers)
			}()
		}
		wg.Wait()
	}
	each(func(w, lo, hi int) {
		c := 0
		for v := lo; v < hi; v++ {
			if parent[v] != int32(v) {
				c++
			}
		}
		counts[w+1] = c
	})
	for w := range workers {
		counts[w+1] += counts[w]
	}
	m := counts[workers]
	f := &ecl.Forest{U: make([]int32, m), V: make([]int32, m)}
	each(func(w, lo, hi int) {
		i := counts[w]
		for v := lo; v < hi; v++ {
			if parent[v] != int32(v) {
				e := edges[v]
				a, b := int32(e>>32), int32(uint32(e))
				f.U[i], f.V[i] = min(a, b), max(a, b)
				i++
			}
		}
	})
	return f
}
