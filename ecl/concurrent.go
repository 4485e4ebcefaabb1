package ecl

import (
	"sync/atomic"

	"github.com/cclabel/cclabel/internal/parallel"
)

// ComponentsParallel runs ECL-CC on up to threads goroutines.
//
// Each goroutine takes contiguous vertex ranges and hooks with
// compare-and-swap; 0 threads means GOMAXPROCS. It returns each vertex's
// representative.
func ComponentsParallel(g *Graph, threads int) []int32 {
	return componentsParallel(g, threads, nil)
}

// componentsParallel is [ComponentsParallel], recording its hooks in log
// when log is not nil.
func componentsParallel(g *Graph, threads int, log *hookLog) []int32 {
	n := g.NumVertices()
	parent := make([]int32, n)
	parallel.Ranges(n, threads, func(lo, hi int) { initParents(g, parent, lo, hi, log) })
	parallel.Chunks(n, threads, func(lo, hi int) { computeRange(g, parent, lo, hi, log) })
	parallel.Ranges(n, threads, func(lo, hi int) { flattenRange(parent, lo, hi) })
	return parent
}

// findAtomic is findSerial for concurrent use.
func findAtomic(parent []int32, v int32) int32 {
	curr := atomic.LoadInt32(&parent[v])
	if curr == v {
		return curr
	}
	prev := v
	for {
		next := atomic.LoadInt32(&parent[curr])
		if next >= curr {
			return curr
		}
		atomic.StoreInt32(&parent[prev], next)
		prev, curr = curr, next
	}
}

// computeRange hooks the edges of vertices [lo, hi), each undirected edge
// from its larger endpoint, with lock-free compare-and-swap. Successful
// hooks are recorded in log when it is not nil.
func computeRange(g *Graph, parent []int32, lo, hi int, log *hookLog) {
	offsets, nbrs := g.Offsets, g.Neighbors
	for v := lo; v < hi; v++ {
		if atomic.LoadInt32(&parent[v]) == int32(v) {
			continue
		}
		vrep := findAtomic(parent, int32(v))
		for _, u := range nbrs[offsets[v]:offsets[v+1]] {
			if u >= int32(v) {
				continue
			}
			urep := findAtomic(parent, u)
			for vrep != urep {
				if vrep < urep {
					if atomic.CompareAndSwapInt32(&parent[urep], urep, vrep) {
						if log != nil {
							log.record(urep, int32(v), u)
						}
						break
					}
					// urep was hooked meanwhile: climb to its new parent.
					urep = atomic.LoadInt32(&parent[urep])
				} else {
					if atomic.CompareAndSwapInt32(&parent[vrep], vrep, urep) {
						if log != nil {
							log.record(vrep, int32(v), u)
						}
						vrep = urep
						break
					}
					vrep = atomic.LoadInt32(&parent[vrep])
				}
			}
		}
	}
}

// flattenRange is flattenSerial for concurrent use.
func flattenRange(parent []int32, lo, hi int) {
	for v := lo; v < hi; v++ {
		rep := atomic.LoadInt32(&parent[v])
		old := rep
		for {
			next := atomic.LoadInt32(&parent[rep])
			if next >= rep {
				break
			}
			rep = next
		}
		if rep != old {
			atomic.StoreInt32(&parent[v], rep)
		}
	}
}

// ComponentsAtomicFree runs ECLaf, the atomic-free variant of ECL-CC.
//
// It runs on up to threads goroutines. Hooks are plain
// (non-read-modify-write) stores, so a concurrent hook can be lost; the
// compute phase therefore repeats until a whole pass hooks nothing. In Go
// the loads and stores are still sync/atomic loads and stores, which the
// memory model requires for data shared between goroutines, but no
// compare-and-swap is used.
func ComponentsAtomicFree(g *Graph, threads int) []int32 {
	n := g.NumVertices()
	parent := make([]int32, n)
	parallel.Ranges(n, threads, func(lo, hi int) { initParents(g, parent, lo, hi, nil) })
	for {
		var changed atomic.Bool
		parallel.Chunks(n, threads, func(lo, hi int) {
			if computeRangeAtomicFree(g, parent, lo, hi) {
				changed.Store(true)
			}
		})
		if !changed.Load() {
			break
		}
	}
	parallel.Ranges(n, threads, func(lo, hi int) { flattenRange(parent, lo, hi) })
	return parent
}

// computeRangeAtomicFree is one ECLaf pass over vertices [lo, hi); it
// reports whether it hooked anything.
func computeRangeAtomicFree(g *Graph, parent []int32, lo, hi int) bool {
	offsets, nbrs := g.Offsets, g.Neighbors
	changed := false
	for v := lo; v < hi; v++ {
		if atomic.LoadInt32(&parent[v]) == int32(v) {
			continue
		}
		vrep := findAtomic(parent, int32(v))
		for _, u := range nbrs[offsets[v]:offsets[v+1]] {
			if u >= int32(v) {
				continue
			}
			urep := findAtomic(parent, u)
			switch {
			case vrep < urep:
				atomic.StoreInt32(&parent[urep], vrep)
				changed = true
			case urep < vrep:
				atomic.StoreInt32(&parent[vrep], urep)
				vrep = urep
				changed = true
			}
		}
	}
	return changed
}
