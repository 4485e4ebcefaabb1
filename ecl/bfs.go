package ecl

import "fmt"

// ComponentsBFS labels components by breadth-first search, the oracle of
// ECL-CC.
//
// It searches one component at a time, visiting start vertices in
// increasing order, and returns each vertex's representative (the
// component's smallest ID, which is the start vertex). It shares no code
// with ECL-CC and serves as its oracle and as the baseline of the
// benchmarks.
func ComponentsBFS(g *Graph) []int32 {
	n := g.NumVertices()
	rep := make([]int32, n)
	for i := range rep {
		rep[i] = -1
	}
	queue := make([]int32, 0, n)
	offsets, nbrs := g.Offsets, g.Neighbors
	for s := range n {
		if rep[s] >= 0 {
			continue
		}
		root := int32(s)
		rep[s] = root
		queue = append(queue[:0], root)
		for head := 0; head < len(queue); head++ {
			v := queue[head]
			for _, u := range nbrs[offsets[v]:offsets[v+1]] {
				if rep[u] < 0 {
					rep[u] = root
					queue = append(queue, u)
				}
			}
		}
	}
	return rep
}

// Verify checks representatives against an independent breadth-first search.
//
// parent holds one representative per vertex of g. Verify returns nil when
// every vertex's representative is the smallest ID of its component as
// [ComponentsBFS] finds it.
func Verify(g *Graph, parent []int32) error {
	n := g.NumVertices()
	if len(parent) != n {
		return fmt.Errorf("ecl: verify: %d representatives for %d vertices", len(parent), n)
	}
	want := ComponentsBFS(g)
	for v := range n {
		if parent[v] != want[v] {
			return fmt.Errorf("ecl: verify: vertex %d has representative %d, BFS says %d",
				v, parent[v], want[v])
		}
	}
	return nil
}
