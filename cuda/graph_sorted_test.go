package cuda

import (
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

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
