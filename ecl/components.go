package ecl

import (
	"fmt"

	"github.com/cclabel/cclabel/internal/parallel"
)

// Components labels the connected components of the symmetric graph g.
//
// It runs the algorithm of opts on its threads. The graph must be valid
// (see [Graph.Validate]) and symmetric (see [Graph.IsSymmetric]); an
// asymmetric graph gives undefined (but memory-safe) results. Every vertex
// gets its representative: the smallest vertex ID of its component.
//
// ECL-CC ([ECL]) runs in three phases:
//
//   - init: each vertex points at its first neighbour (in adjacency order)
//     with a smaller ID, or at itself;
//   - compute: every undirected edge is visited once, from its larger
//     endpoint, and the two representatives are hooked, larger under
//     smaller, with a compare-and-swap; find uses intermediate pointer
//     jumping (path halving);
//   - finalize: single pointer jumping makes every vertex point straight at
//     its representative.
//
// Because ECL-CC processes each edge from one side only, the graph must be
// symmetric: every arc (u,v) needs its reverse (v,u). [FromEdges] builds
// such graphs; [Graph.IsSymmetric] and [Graph.Symmetrize] check and repair
// others.
func Components(g *Graph, opts Options) (*Result, error) {
	parent, err := run(g, opts, nil)
	if err != nil {
		return nil, err
	}
	return &Result{Parent: parent, Count: countRoots(parent, opts.Threads)}, nil
}

// run computes the representatives with the algorithm of opts, recording
// the hooks in log when it is not nil.
func run(g *Graph, opts Options, log *hookLog) ([]int32, error) {
	if !opts.Algorithm.Valid() {
		return nil, fmt.Errorf("ecl: unknown algorithm %v", opts.Algorithm)
	}
	threads := opts.Threads
	if opts.Serial {
		threads = 1
	}
	algo := opts.Algorithm
	if algo == Auto {
		algo = ChooseAlgorithm(g)
	}
	switch {
	case algo == ECLaf:
		if log != nil {
			return nil, fmt.Errorf("ecl: ECLaf cannot record a spanning forest (its plain-store hooks may be overwritten); use ecl or afforest")
		}
		return ComponentsAtomicFree(g, threads), nil
	case algo == Afforest:
		return afforest(g, threads, opts.SampleRounds, log), nil
	case opts.Serial:
		return componentsSerial(g, log), nil
	}
	return componentsParallel(g, threads, log), nil
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
// at its first neighbour with a smaller ID, or at itself. Each such first
// hook is recorded in log when it is not nil.
func initParents(g *Graph, parent []int32, lo, hi int, log *hookLog) {
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
		if log != nil && m != int32(v) {
			log.record(int32(v), int32(v), m)
		}
	}
}
