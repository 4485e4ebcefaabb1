package ecl

import (
	"fmt"
	"math"
	"slices"

	"github.com/cclabel/cclabel/internal/parallel"
)

// minEdgesPerThread is the fewest edges worth another goroutine.
const minEdgesPerThread = 1 << 16

// FromEdgesParallel is [FromEdges] on threads goroutines.
//
// It builds the symmetric graph on n vertices of the undirected edges
// (us[i], vs[i]) on threads goroutines (0: GOMAXPROCS), exactly as
// FromEdges does: every edge in both directions, self-loops dropped,
// repeated edges stored once, adjacency lists sorted. Its errors are
// FromEdges's too. Small inputs, one thread, or few edges for the
// vertices (which FromEdges places by sorting them, without passes
// over the vertices) go to FromEdges.
//
// Degrees are counted and arcs placed with atomic adds, in any order;
// sorting each list then makes the result independent of that order. The
// only per-vertex array is the graph's offsets.
func FromEdgesParallel(n int, us, vs []int32, threads int) (*Graph, error) {
	return fromEdgesParallel(n, us, vs, threads, minEdgesPerThread)
}

// fewEdgesPerVertex is the ratio of vertices to edges from which
// [FromEdgesParallel] leaves the graph to [FromEdges].
const fewEdgesPerVertex = 64

// fromEdgesParallel is [FromEdgesParallel] with at least minPerThread edges
// a goroutine (tests lower it).
func fromEdgesParallel(n int, us, vs []int32, threads, minPerThread int) (*Graph, error) {
	threads = parallel.ClampThreads(threads, len(us)/minPerThread)
	if threads == 1 || len(us) != len(vs) || n < 0 || n >= math.MaxInt32 || int64(len(us)) <= int64(n)/fewEdgesPerVertex {
		return FromEdges(n, us, vs)
	}
	arcs, err := checkEdges(n, us, vs, threads)
	if err != nil {
		return nil, err
	}
	// offsets[v] counts v's arcs, then (after a scan) is where v's list
	// ends, and after the arcs are placed back to front where it starts.
	// Each goroutine owns a range of vertices and, reading every edge,
	// counts and places only its own vertices' arcs: no atomics, so the
	// random accesses overlap.
	offsets := make([]int64, n+1)
	owners := make([]int, threads+1) // goroutine t owns [owners[t], owners[t+1])
	for t := range owners {
		owners[t] = n * t / threads
	}
	parallel.RangesIndexed(threads, threads, func(t, _, _ int) {
		countArcs(offsets, us, vs, owners[t], owners[t+1])
	})
	sum := int64(0)
	for v, d := range offsets[:n] {
		sum += d
		offsets[v] = sum
	}
	offsets[n] = sum
	for t := 1; t < threads; t++ { // balance the arcs between goroutines
		i, _ := slices.BinarySearch(offsets[:n], sum*int64(t)/int64(threads))
		owners[t] = max(i, owners[t-1])
	}
	nbrs := make([]int32, arcs)
	parallel.RangesIndexed(threads, threads, func(t, _, _ int) {
		placeArcs(offsets, nbrs, us, vs, owners[t], owners[t+1])
	})
	// Sort each list and drop repeats in place. A list that shrank to d
	// entries holds ^d (negative) in its last slot, which the repeats
	// left free.
	parallel.Chunks(n, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			adj := nbrs[offsets[v]:offsets[v+1]]
			if len(adj) < 2 {
				continue
			}
			slices.Sort(adj)
			if d := len(slices.Compact(adj)); d < len(adj) {
				adj[len(adj)-1] = int32(^d)
			}
		}
	})
	// Move the lists together, front to back: no list moves right.
	to, from := int64(0), int64(0)
	for v := range n {
		end := offsets[v+1] // v's list ends where v+1's starts
		offsets[v] = to
		deg := end - from
		if deg > 0 && nbrs[end-1] < 0 {
			deg = int64(^nbrs[end-1])
		}
		if to != from {
			copy(nbrs[to:to+deg], nbrs[from:from+deg])
		}
		to += deg
		from = end
	}
	offsets[n] = to
	return &Graph{Offsets: offsets, Neighbors: slices.Clip(nbrs[:to])}, nil
}

// countArcs adds to offsets[x] the arcs of each vertex x of [lo, hi):
// the edges' endpoints other than self-loops.
func countArcs(offsets []int64, us, vs []int32, lo, hi int) {
	span := uint32(hi - lo)
	vs = vs[:len(us)]
	for i, u := range us {
		v := vs[i]
		if u == v {
			continue
		}
		if uint32(int(u)-lo) < span {
			offsets[u]++
		}
		if uint32(int(v)-lo) < span {
			offsets[v]++
		}
	}
}

// placeArcs places the arcs of the vertices of [lo, hi) into nbrs, each
// before offsets[x], which it lowers.
func placeArcs(offsets []int64, nbrs, us, vs []int32, lo, hi int) {
	span := uint32(hi - lo)
	vs = vs[:len(us)]
	for i, u := range us {
		v := vs[i]
		if u == v {
			continue
		}
		if uint32(int(u)-lo) < span {
			offsets[u]--
			nbrs[offsets[u]] = v
		}
		if uint32(int(v)-lo) < span {
			offsets[v]--
			nbrs[offsets[v]] = u
		}
	}
}

// checkEdges finds what [FromEdges] would refuse: the first edge out of
// range. It returns the number of arcs before repeats are dropped.
func checkEdges(n int, us, vs []int32, threads int) (int64, error) {
	threads = parallel.ClampThreads(threads, len(us))
	firstBad := make([]int, threads)
	loops := make([]int64, threads)
	parallel.RangesIndexed(len(us), threads, func(t, lo, hi int) {
		firstBad[t] = -1
		for i := lo; i < hi; i++ {
			u, v := us[i], vs[i]
			if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
				firstBad[t] = i
				return
			}
			if u == v {
				loops[t]++
			}
		}
	})
	var arcs int64
	for t := range threads {
		if i := firstBad[t]; i >= 0 {
			return 0, fmt.Errorf("ecl: edge %d (%d,%d) out of range [0,%d)", i, us[i], vs[i], n)
		}
		arcs -= 2 * loops[t]
	}
	arcs += 2 * int64(len(us))
	return arcs, nil
}
