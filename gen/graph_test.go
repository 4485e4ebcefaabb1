package gen

import (
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

func TestGridGraph(t *testing.T) {
	g, err := GridGraph(4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 12 || g.NumEdges() != 2*(3*3+4*2) || !g.IsSymmetric(1) {
		t.Fatalf("grid 4x3: %d vertices, %d arcs", g.NumVertices(), g.NumEdges())
	}
	// Vertex 5 = (1,1) has neighbours up 1, left 4, right 6, down 9.
	if got := g.Adjacent(5); !slices.Equal(got, []int32{1, 4, 6, 9}) {
		t.Fatalf("neighbours of 5: %v", got)
	}
	if _, err := GridGraph(0, 3); err == nil {
		t.Fatal("empty grid accepted")
	}
}

func TestRandomGraphDeterministicAndValid(t *testing.T) {
	a, err := RandomGraph(1<<17, 4, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RandomGraph(1<<17, 4, 42)
	c, _ := RandomGraph(1<<17, 4, 43)
	if !slices.Equal(a.Neighbors, b.Neighbors) || !slices.Equal(a.Offsets, b.Offsets) {
		t.Fatal("same seed, different graphs")
	}
	if slices.Equal(a.Neighbors, c.Neighbors) {
		t.Fatal("different seeds, same graph")
	}
	if err := a.Validate(); err != nil || !a.IsSymmetric(2) {
		t.Fatalf("invalid or asymmetric: %v", err)
	}
	// Every vertex picked 4 distinct-or-repeated others: degree >= 1, and
	// about 8 on average after symmetrizing.
	avg := float64(a.NumEdges()) / float64(a.NumVertices())
	if avg < 7.9 || avg > 8.0 {
		t.Fatalf("average degree %.3f, want just under 8", avg)
	}
	for v := range a.NumVertices() {
		if slices.Contains(a.Adjacent(v), int32(v)) {
			t.Fatalf("self-loop at %d", v)
		}
	}
}

func TestRMATGraphSkewed(t *testing.T) {
	g, err := RMATGraph(14, 8, 7)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil || !g.IsSymmetric(2) {
		t.Fatalf("invalid or asymmetric: %v", err)
	}
	// With a=0.57, vertex 0 is the hub: far above the average degree.
	avg := float64(g.NumEdges()) / float64(g.NumVertices())
	if d := float64(g.Degree(0)); d < 20*avg {
		t.Fatalf("degree of vertex 0 is %.0f, average %.1f: not skewed", d, avg)
	}
	r, _ := ecl.Components(g, ecl.Options{})
	if r.Count < 2 {
		t.Fatalf("R-MAT graphs have isolated vertices; got %d components", r.Count)
	}
	if _, err := RMATGraph(31, 1, 1); err == nil {
		t.Fatal("scale 31 accepted")
	}
}
