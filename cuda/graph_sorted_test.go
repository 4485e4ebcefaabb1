package cuda

import (
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

func TestFirstUnsortedList(t *testing.T) {
	g, err := gen.RandomGraph(1<<17, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if v := firstUnsortedList(g); v != -1 {
		t.Fatalf("generated graph: list of %d reported unsorted", v)
	}
	v := 99999
	adj := g.Adjacent(v)
	if len(adj) < 2 {
		t.Fatalf("vertex %d has %d neighbours", v, len(adj))
	}
	adj[0], adj[len(adj)-1] = adj[len(adj)-1], adj[0]
	if got := firstUnsortedList(g); got != v {
		t.Fatalf("firstUnsortedList = %d, want %d", got, v)
	}
	g.SortAdjacency(2)
	if got := firstUnsortedList(g); got != -1 {
		t.Fatalf("after SortAdjacency: %d", got)
	}
	empty := &ecl.Graph{Offsets: []int64{0}}
	if got := firstUnsortedList(empty); got != -1 {
		t.Fatalf("empty graph: %d", got)
	}
}

func TestGraphComponentsRefusesUnsortedLists(t *testing.T) {
	c := gpuContext(t)
	// Vertex 3 lists [5 6 1]: a binary search would miss neighbour 1.
	g, err := ecl.FromEdges(7, []int32{3, 3, 3}, []int32{5, 6, 1})
	if err != nil {
		t.Fatal(err)
	}
	adj := g.Adjacent(3)
	adj[0], adj[1], adj[2] = 5, 6, 1
	if _, _, err := c.GraphComponents(g); err == nil {
		t.Fatal("unsorted lists accepted")
	}
}
