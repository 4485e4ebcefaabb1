package ecl

import (
	"fmt"
	"math"
	"slices"

	"github.com/cclabel/cclabel/internal/parallel"
)

// FromEdges builds a symmetric graph on n vertices from undirected edges.
//
// The edges are (us[i], vs[i]). Every edge is stored in both directions,
// self-loops are dropped (they never change connectivity), repeated edges
// are stored once and every adjacency list is sorted. Its only per-vertex
// array is the graph's offsets, written in one pass when there are few
// edges.
func FromEdges(n int, us, vs []int32) (*Graph, error) {
	if len(us) != len(vs) {
		return nil, fmt.Errorf("ecl: %d sources but %d targets", len(us), len(vs))
	}
	if n < 0 || n >= math.MaxInt32 {
		return nil, fmt.Errorf("ecl: vertex count %d out of range", n)
	}
	if fewEdges(n, len(us)) {
		return fromFewEdges(n, us, vs)
	}
	// offsets[v] counts v's arcs, then (after a scan) is where v's list
	// ends, and after the arcs are placed back to front where it starts.
	offsets := make([]int64, n+1)
	for i, u := range us {
		v := vs[i]
		if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return nil, fmt.Errorf("ecl: edge %d (%d,%d) out of range [0,%d)", i, u, v, n)
		}
		if u != v {
			offsets[u]++
			offsets[v]++
		}
	}
	var total int64
	for v, d := range offsets[:n] {
		total += d
		offsets[v] = total
	}
	offsets[n] = total
	nbrs := make([]int32, total)
	for i, u := range us {
		if v := vs[i]; u != v {
			offsets[u]--
			nbrs[offsets[u]] = v
			offsets[v]--
			nbrs[offsets[v]] = u
		}
	}
	return &Graph{Offsets: offsets, Neighbors: sortUnique(offsets, nbrs)}, nil
}

// fewEdges reports whether [FromEdges] builds a graph of n vertices and m
// edges by sorting its arcs rather than by counting degrees: when there
// are so few that the counting method's passes over the vertices would
// cost more than the sort.
func fewEdges(n, m int) bool { return int64(m) <= int64(n)/64 }

// fromFewEdges is [FromEdges] for few edges (see fewEdges): it sorts the
// arcs, drops repeats, and then writes the offsets in one pass.
func fromFewEdges(n int, us, vs []int32) (*Graph, error) {
	arcs := make([]uint64, 0, 2*len(us))
	for i, u := range us {
		v := vs[i]
		if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return nil, fmt.Errorf("ecl: edge %d (%d,%d) out of range [0,%d)", i, u, v, n)
		}
		if u != v {
			arcs = append(arcs, uint64(u)<<32|uint64(v), uint64(v)<<32|uint64(u))
		}
	}
	slices.Sort(arcs)
	arcs = slices.Compact(arcs)
	offsets := make([]int64, n+1)
	nbrs := make([]int32, len(arcs))
	next := 0 // the first vertex whose offset is not yet written
	for i, a := range arcs {
		u := int(a >> 32)
		for ; next <= u; next++ {
			offsets[next] = int64(i)
		}
		nbrs[i] = int32(uint32(a))
	}
	for ; next <= n; next++ {
		offsets[next] = int64(len(arcs))
	}
	return &Graph{Offsets: offsets, Neighbors: nbrs}, nil
}

// sortUnique sorts each adjacency list of the CSR arrays offsets and nbrs
// and drops its repeats, moving the lists together and updating offsets.
// It returns the neighbours, clipped to their new length.
func sortUnique(offsets []int64, nbrs []int32) []int32 {
	n := len(offsets) - 1
	w, start := int64(0), int64(0)
	for v := range n {
		end := offsets[v+1] // v's list ends where v+1's starts
		offsets[v] = w
		switch adj := nbrs[start:end]; len(adj) {
		case 0:
		case 1:
			nbrs[w] = adj[0]
			w++
		default:
			slices.Sort(adj)
			prev := adj[0]
			nbrs[w] = prev
			w++
			for _, u := range adj[1:] {
				if u != prev {
					nbrs[w] = u
					w++
					prev = u
				}
			}
		}
		start = end
	}
	offsets[n] = w
	return slices.Clip(nbrs[:w])
}

// SortAdjacency sorts every adjacency list in place, using up to threads
// goroutines.
//
// Connected components do not depend on adjacency order; sorted lists let
// [Graph.IsSymmetric] use binary search.
func (g *Graph) SortAdjacency(threads int) {
	n := g.NumVertices()
	parallel.Ranges(n, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			adj := g.Adjacent(v)
			if !slices.IsSorted(adj) {
				slices.Sort(adj)
			}
		}
	})
}

// IsSymmetric reports whether every arc (v,u) has its reverse (u,v).
//
// It uses up to threads goroutines. It is exact for any valid graph; it is
// fastest when adjacency lists are sorted (see [Graph.SortAdjacency]) and
// free of repeats.
func (g *Graph) IsSymmetric(threads int) bool {
	n := g.NumVertices()
	threads = parallel.ClampThreads(threads, n)
	var down, up [parallel.MaxThreads]int64
	var bad [parallel.MaxThreads]bool
	var simple [parallel.MaxThreads]bool
	// Pass 1: every downward arc (v,u), u < v, must have its reverse; count
	// arcs in each direction and note whether all lists are sorted and
	// free of repeats.
	parallel.RangesIndexed(n, threads, func(t, lo, hi int) {
		ok, isSimple := true, true
		var d, u64 int64
		var batch arcBatch
		for v := lo; v < hi && ok; v++ {
			adj := g.Adjacent(v)
			for i, u := range adj {
				if i > 0 && u <= adj[i-1] {
					isSimple = false
				}
				switch {
				case int(u) < v:
					d++
					if batch.add(u, int32(v)) && !g.hasArcs(&batch) {
						ok = false
					}
				case int(u) > v:
					u64++
				}
			}
		}
		if ok && !g.hasArcs(&batch) {
			ok = false
		}
		down[t], up[t], bad[t], simple[t] = d, u64, !ok, isSimple
	})
	var totalDown, totalUp int64
	allSimple := true
	for t := range threads {
		if bad[t] {
			return false
		}
		totalDown += down[t]
		totalUp += up[t]
		allSimple = allSimple && simple[t]
	}
	if allSimple {
		// Without repeats, downward arcs map one-to-one onto upward arcs,
		// so equal counts mean every upward arc has its reverse too.
		return totalDown == totalUp
	}
	// Pass 2 (repeats or unsorted lists): check upward arcs as well.
	parallel.RangesIndexed(n, threads, func(t, lo, hi int) {
		for v := lo; v < hi; v++ {
			for _, u := range g.Adjacent(v) {
				if int(u) > v && !g.hasArc(int(u), int32(v)) {
					bad[t] = true
					return
				}
			}
		}
	})
	for t := range threads {
		if bad[t] {
			return false
		}
	}
	return true
}

// arcBatch collects arcs to look up together, so that the cache misses of
// their lookups overlap instead of following one another.
type arcBatch struct {
	from, to   [256]int32
	start, end [256]int64
	n          int
	touched    int32 // keeps the touching loads from being optimised away
}

// add appends the arc (from, to) and reports whether the batch is full.
func (b *arcBatch) add(from, to int32) bool {
	b.from[b.n], b.to[b.n] = from, to
	b.n++
	return b.n == len(b.from)
}

// hasArcs reports whether every arc of the batch is in the graph, and
// empties the batch. It first loads all offsets, then touches every
// adjacency list, then searches them: the loads of each stage are
// independent of one another, so the processor overlaps their misses.
func (g *Graph) hasArcs(b *arcBatch) bool {
	n := b.n
	b.n = 0
	for i := range n {
		u := b.from[i]
		b.start[i], b.end[i] = g.Offsets[u], g.Offsets[u+1]
	}
	for i := range n {
		if b.start[i] < b.end[i] {
			b.touched |= g.Neighbors[b.start[i]]
		}
	}
	for i := range n {
		if !g.hasArcIn(g.Neighbors[b.start[i]:b.end[i]], b.to[i]) {
			return false
		}
	}
	return true
}

// hasArc reports whether target is in v's adjacency list: binary search on a
// sorted list, a scan otherwise.
func (g *Graph) hasArc(v int, target int32) bool {
	return g.hasArcIn(g.Adjacent(v), target)
}

// hasArcIn reports whether target is in the adjacency list adj.
func (g *Graph) hasArcIn(adj []int32, target int32) bool {
	if len(adj) > 8 && adj[0] <= adj[len(adj)-1] {
		if _, found := slices.BinarySearch(adj, target); found {
			return true
		}
		if slices.IsSorted(adj) {
			return false
		}
	}
	return slices.Contains(adj, target)
}

// Symmetrize returns a symmetric graph with every arc of g in both directions.
//
// Self-loops are dropped and repeats removed, as [FromEdges] does.
func (g *Graph) Symmetrize() (*Graph, error) {
	n := g.NumVertices()
	us := make([]int32, 0, len(g.Neighbors))
	vs := make([]int32, 0, len(g.Neighbors))
	for v := 0; v < n; v++ {
		for _, u := range g.Adjacent(v) {
			us = append(us, int32(v))
			vs = append(vs, u)
		}
	}
	return FromEdges(n, us, vs)
}
