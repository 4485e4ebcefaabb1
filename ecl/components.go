package ecl

import (
	"fmt"

	"github.com/cclabel/cclabel/internal/parallel"
)

// Components labels the connected components of the symmetric graph g with
// the algorithm and threads of opts. The graph must be valid (see
// Validate) and symmetric (see IsSymmetric); an asymmetric graph gives
// undefined (but memory-safe) results.
func Components(g *Graph, opts Options) (*Result, error) {
	var parent []int32
	switch {
	case opts.Algorithm != ECL && opts.Algorithm != ECLaf:
		return nil, fmt.Errorf("ecl: unknown algorithm %v", opts.Algorithm)
	case opts.Algorithm == ECLaf && opts.Serial:
		parent = ComponentsAtomicFree(g, 1)
	case opts.Algorithm == ECLaf:
		parent = ComponentsAtomicFree(g, opts.Threads)
	case opts.Serial:
		parent = ComponentsSerial(g)
	default:
		parent = ComponentsParallel(g, opts.Threads)
	}
	return &Result{Parent: parent, Count: countRoots(parent, opts.Threads)}, nil
}

// countRoots counts the vertices that are their own representative.
func countRoots(parent []int32, threads int) int {
	var counts [parallel.MaxThreads]int
	parallel.RangesIndexed(len(parent), threads, func(t, lo, hi int) {
		c := 0
		for v := lo; v < hi; v++ {
			if parent[v] == int32(v) {
				c++
			}
		}
		counts[t] = c
	})
	total := 0
	for _, c := range counts {
		total += c
	}
	return total
}

// initParents runs the init phase on vertices [lo, hi): each vertex points
// at its first neighbour with a smaller ID, or at itself.
func initParents(g *Graph, parent []int32, lo, hi int) {
	offsets, nbrs := g.Offsets, g.Neighbors
	for v := lo; v < hi; v++ {
		m := int32(v)
		for _, u := range nbrs[offsets[v]:offsets[v+1]] {
			if u < m {
				m = u
				break
			}
		}
		parent[v] = m
	}
}
