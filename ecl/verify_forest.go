package ecl

import "fmt"

// VerifyForest checks that f is a spanning forest of g.
//
// It checks independently of how f was built: every edge joins two vertices
// of g and is an edge of g (looked up in the adjacency lists, by binary
// search where they are sorted), no edge closes a cycle (a union-find of its
// own over the edges), and there are n - c edges, c being the component
// count of a breadth-first search of g. Acyclic with n - c edges of g, the
// forest spans every component.
func VerifyForest(g *Graph, f *Forest) error {
	n := g.NumVertices()
	if len(f.U) != len(f.V) {
		return fmt.Errorf("ecl: verify forest: %d first endpoints but %d second", len(f.U), len(f.V))
	}
	count := 0
	for v, rep := range ComponentsBFS(g) {
		if rep == int32(v) {
			count++
		}
	}
	if want := n - count; len(f.U) != want {
		return fmt.Errorf("ecl: verify forest: %d edges, want %d (%d vertices, %d components)",
			len(f.U), want, n, count)
	}
	uf := newSizedUnionFind(n)
	for i, u := range f.U {
		v := f.V[i]
		if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return fmt.Errorf("ecl: verify forest: edge %d (%d, %d) has a vertex outside [0, %d)", i, u, v, n)
		}
		if !g.hasArc(int(u), v) {
			return fmt.Errorf("ecl: verify forest: edge %d (%d, %d) is not an edge of the graph", i, u, v)
		}
		if !uf.union(u, v) {
			return fmt.Errorf("ecl: verify forest: edge %d (%d, %d) closes a cycle", i, u, v)
		}
	}
	return nil
}

// sizedUnionFind is a textbook serial union-find (union by size, full path
// compression), deliberately unlike the hooking of the algorithms it
// checks.
type sizedUnionFind struct {
	parent, size []int32
}

func newSizedUnionFind(n int) *sizedUnionFind {
	uf := &sizedUnionFind{parent: make([]int32, n), size: make([]int32, n)}
	for i := range uf.parent {
		uf.parent[i], uf.size[i] = int32(i), 1
	}
	return uf
}

func (uf *sizedUnionFind) find(v int32) int32 {
	root := v
	for uf.parent[root] != root {
		root = uf.parent[root]
	}
	for uf.parent[v] != root {
		uf.parent[v], v = root, uf.parent[v]
	}
	return root
}

// union joins the sets of a and b and reports whether they were distinct.
func (uf *sizedUnionFind) union(a, b int32) bool {
	ra, rb := uf.find(a), uf.find(b)
	if ra == rb {
		return false
	}
	if uf.size[ra] < uf.size[rb] {
		ra, rb = rb, ra
	}
	uf.parent[rb] = ra
	uf.size[ra] += uf.size[rb]
	return true
}
