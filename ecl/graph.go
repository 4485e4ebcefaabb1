package ecl

import (
	"errors"
	"fmt"
	"math"
)

// Graph is an undirected graph in compressed sparse row (CSR) form.
//
// The neighbours of vertex v are Neighbors[Offsets[v]:Offsets[v+1]].
// Offsets has one entry more than there are vertices. Vertex IDs are
// 0-based and 32-bit (fewer than 2^31-1 vertices); offsets are 64-bit, so
// a graph may hold more than 2^31 arcs. ECL-CC needs the graph to be
// symmetric (see [Graph.IsSymmetric]).
type Graph struct {
	Offsets   []int64
	Neighbors []int32
}

// NumVertices returns the number of vertices.
func (g *Graph) NumVertices() int {
	if len(g.Offsets) == 0 {
		return 0
	}
	return len(g.Offsets) - 1
}

// NumEdges returns the number of stored arcs.
//
// A symmetric graph without self-loops stores twice as many arcs as it has
// undirected edges.
func (g *Graph) NumEdges() int { return len(g.Neighbors) }

// Degree returns the number of neighbours of v.
func (g *Graph) Degree(v int) int { return int(g.Offsets[v+1] - g.Offsets[v]) }

// Adjacent returns the neighbours of v. The slice aliases the graph.
func (g *Graph) Adjacent(v int) []int32 {
	return g.Neighbors[g.Offsets[v]:g.Offsets[v+1]]
}

// Bytes returns the memory held by the CSR arrays.
func (g *Graph) Bytes() int64 {
	return 8*int64(len(g.Offsets)) + 4*int64(len(g.Neighbors))
}

// ErrInvalidGraph is wrapped by every error [Graph.Validate] returns.
var ErrInvalidGraph = errors.New("invalid graph")

// Validate checks the CSR structure of g.
//
// Offsets must have n+1 entries, start at 0, be non-decreasing and end at
// len(Neighbors), and every neighbour ID must lie in [0, n). Validate does
// not check symmetry.
func (g *Graph) Validate() error {
	if len(g.Offsets) == 0 {
		if len(g.Neighbors) != 0 {
			return fmt.Errorf("%w: %d neighbours but no offsets", ErrInvalidGraph, len(g.Neighbors))
		}
		return nil
	}
	if len(g.Offsets)-1 >= math.MaxInt32 {
		return fmt.Errorf("%w: %d vertices: too many for 32-bit IDs", ErrInvalidGraph, len(g.Offsets)-1)
	}
	if g.Offsets[0] != 0 {
		return fmt.Errorf("%w: offsets[0] = %d, want 0", ErrInvalidGraph, g.Offsets[0])
	}
	n := int32(len(g.Offsets) - 1)
	for v := int32(0); v < n; v++ {
		if g.Offsets[v+1] < g.Offsets[v] {
			return fmt.Errorf("%w: offsets not monotone at vertex %d (%d > %d)",
				ErrInvalidGraph, v, g.Offsets[v], g.Offsets[v+1])
		}
	}
	if last := g.Offsets[n]; last != int64(len(g.Neighbors)) {
		return fmt.Errorf("%w: offsets[%d] = %d, but there are %d neighbours",
			ErrInvalidGraph, n, last, len(g.Neighbors))
	}
	for i, u := range g.Neighbors {
		if u < 0 || u >= n {
			return fmt.Errorf("%w: neighbour %d at position %d out of range [0, %d)",
				ErrInvalidGraph, u, i, n)
		}
	}
	return nil
}
