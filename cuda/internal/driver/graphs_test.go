package driver

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
	if v := FirstUnsortedList(g); v != -1 {
		t.Fatalf("generated graph: list of %d reported unsorted", v)
	}
	v := 99999
	adj := g.Adjacent(v)
	if len(adj) < 2 {
		t.Fatalf("vertex %d has %d neighbours", v, len(adj))
	}
	adj[0], adj[len(adj)-1] = adj[len(adj)-1], adj[0]
	if got := FirstUnsortedList(g); got != v {
		t.Fatalf("FirstUnsortedList = %d, want %d", got, v)
	}
	g.SortAdjacency(2)
	if got := FirstUnsortedList(g); got != -1 {
		t.Fatalf("after SortAdjacency: %d", got)
	}
	empty := &ecl.Graph{Offsets: []int64{0}}
	if got := FirstUnsortedList(empty); got != -1 {
		t.Fatalf("empty graph: %d", got)
	}
}
