// Package csr builds CSR graphs from edge lists on several goroutines,
// for the graph readers and generators: the same graph, and the same
// errors, as ecl.FromEdges, which takes one.
package csr

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/parallel"
)

// minEdgesPerThread is the fewest edges worth another goroutine.
const minEdgesPerThread = 1 << 16

// FromEdges builds the symmetric graph on n vertices of the undirected
// edges (us[i], vs[i]) on threads goroutines (0: GOMAXPROCS), exactly as
// ecl.FromEdges does: every edge in both directions, self-loops dropped,
// repeated edges stored once, adjacency lists sorted. Its errors are
// ecl.FromEdges's too. Small inputs, or one thread, go to ecl.FromEdges.
//
// Degrees are counted and arcs placed with atomic adds, in any order;
// sorting each list then makes the result independent of that order.
func FromEdges(n int, us, vs []int32, threads int) (*ecl.Graph, error) {
	return fromEdges(n, us, vs, threads, minEdgesPerThread)
}

// fromEdges is FromEdges with at least minPerThread edges a goroutine
// (tests lower it).
func fromEdges(n int, us, vs []int32, threads, minPerThread int) (*ecl.Graph, error) {
	threads = parallel.ClampThreads(threads, len(us)/minPerThread)
	if threads == 1 || len(us) != len(vs) || n < 0 || n >= math.MaxInt32 {
		return ecl.FromEdges(n, us, vs)
	}
	arcs, err := check(n, us, vs, threads)
	if err != nil {
		return nil, err
	}
	// cursor[v] counts v's arcs, then (after a scan) is where v's next arc
	// goes, and after placing them where v's list ends.
	cursor := make([]int64, n+1)
	parallel.Ranges(len(us), threads, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if u, v := us[i], vs[i]; u != v {
				atomic.AddInt64(&cursor[u], 1)
				atomic.AddInt64(&cursor[v], 1)
			}
		}
	})
	sum := int64(0)
	for v, d := range cursor {
		cursor[v] = sum
		sum += d
	}
	nbrs := make([]int32, arcs)
	parallel.Ranges(len(us), threads, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if u, v := us[i], vs[i]; u != v {
				nbrs[atomic.AddInt64(&cursor[u], 1)-1] = v
				nbrs[atomic.AddInt64(&cursor[v], 1)-1] = u
			}
		}
	})
	// Sort each list and drop repeats in place; offsets[v+1] holds v's
	// new degree until the scan below.
	offsets := make([]int64, n+1)
	parallel.Chunks(n, threads, func(lo, hi int) {
		start := int64(0)
		if lo > 0 {
			start = cursor[lo-1]
		}
		for v := lo; v < hi; v++ {
			adj := nbrs[start:cursor[v]]
			start = cursor[v]
			slices.Sort(adj)
			offsets[v+1] = int64(len(slices.Compact(adj)))
		}
	})
	// Move the lists together, front to back: no list moves right.
	start := int64(0)
	for v := range n {
		from, deg := start, offsets[v+1]
		start = cursor[v]
		offsets[v+1] = offsets[v] + deg
		if to := offsets[v]; to != from {
			copy(nbrs[to:to+deg], nbrs[from:from+deg])
		}
	}
	return &ecl.Graph{Offsets: offsets, Neighbors: slices.Clip(nbrs[:offsets[n]])}, nil
}

// check finds what ecl.FromEdges would refuse: the first edge out of
// range. It returns the number of arcs before repeats are dropped.
func check(n int, us, vs []int32, threads int) (int64, error) {
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
