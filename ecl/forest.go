package ecl

import "github.com/cclabel/cclabel/internal/parallel"

// Forest is a spanning forest of a graph.
//
// For each component of k vertices, it holds k-1 of the graph's edges
// that connect it without a cycle.
type Forest struct {
	// U and V hold the endpoints of the edges: edge i joins vertices U[i]
	// and V[i], with U[i] < V[i].
	U, V []int32
}

// Len returns the number of edges.
func (f *Forest) Len() int { return len(f.U) }

// SpanningForest is [Components] that also returns a spanning forest.
//
// The forest holds the edges whose hooks united two trees during the run
// (the init phase's first hooks included). Each vertex stops being
// a representative once, by one successful compare-and-swap, so the
// recorded edges number n - components and never close a cycle; recording
// costs one pair of stores per hook.
//
// The edges are listed by the vertex they hooked, in increasing order.
// With Serial (or one thread) the forest is deterministic; with several
// goroutines which edge wins a race may vary from run to run, though the
// forest is always valid. ECLaf cannot record a forest (its plain stores
// may overwrite a hook) and is rejected. [VerifyForest] checks a forest
// independently.
func SpanningForest(g *Graph, opts Options) (*Result, *Forest, error) {
	log := newHookLog(g.NumVertices())
	parent, err := run(g, opts, log)
	if err != nil {
		return nil, nil, err
	}
	threads := opts.Threads
	if opts.Serial {
		threads = 1
	}
	res := &Result{Parent: parent, Count: countRoots(parent, threads)}
	return res, log.forest(parent, res.Count, threads), nil
}

// forest gathers the recorded edges of the hooked vertices (those that are
// not their own representative), in vertex order, with the smaller
// endpoint first.
func (h *hookLog) forest(parent []int32, count, threads int) *Forest {
	n := len(parent)
	m := n - count
	f := &Forest{U: make([]int32, m), V: make([]int32, m)}
	threads = parallel.ClampThreads(threads, (n+parallel.DynamicChunk-1)/parallel.DynamicChunk)
	var starts [parallel.MaxThreads]int
	parallel.RangesIndexed(n, threads, func(t, lo, hi int) {
		c := 0
		for v := lo; v < hi; v++ {
			if parent[v] != int32(v) {
				c++
			}
		}
		starts[t] = c
	})
	next := 0
	for t := range threads {
		c := starts[t]
		starts[t] = next
		next += c
	}
	parallel.RangesIndexed(n, threads, func(t, lo, hi int) {
		i := starts[t]
		for v := lo; v < hi; v++ {
			if parent[v] != int32(v) {
				e := h.edge[v]
				a, b := int32(e>>32), int32(uint32(e))
				f.U[i], f.V[i] = min(a, b), max(a, b)
				i++
			}
		}
	})
	return f
}
