package cuda

import (
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

// TestHookByPriorityChoice checks which graphs ECL-CC hooks by priority:
// sparse graphs without hubs or vertices above 16 unless forced, never
// with a forest or 64-bit offsets.
func TestHookByPriorityChoice(t *testing.T) {
	grid, err := gen.GridGraph(64, 64)
	if err != nil {
		t.Fatal(err)
	}
	rmat, err := gen.RMATGraph(12, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := edgeGraph(t, 5, 0, 1, 1, 2, 2, 3, 3, 4)
	// Sparse graphs with one vertex above 16: a path of 200 with a star of
	// 20 leaves (2.2 arcs a vertex: listed, no hub), and 1,000 vertices, most
	// isolated, with a star of 10 (a hub of 0.02 arcs a vertex, not listed).
	var pairs []int32
	for v := int32(1); v < 200; v++ {
		pairs = append(pairs, v-1, v)
	}
	for v := int32(1); v <= 20; v++ {
		pairs = append(pairs, 0, 2*v)
	}
	listed := edgeGraph(t, 200, pairs...)
	hub := edgeGraph(t, 1000, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10)
	for name, d := range map[string]degreeShape{"listed": shapeOf(listed), "hub": shapeOf(hub)} {
		if !d.sparse || d.listed != (name == "listed") || d.hubs != (name == "hub") {
			t.Fatalf("%s: shape %+v", name, d)
		}
	}
	var auto GraphOptions
	forced, never := GraphOptions{prio: 1}, GraphOptions{prio: -1}
	for _, c := range []struct {
		name                string
		opts                GraphOptions
		shape               degreeShape
		forest, wide, wants bool
	}{
		{"path", auto, shapeOf(path), false, false, true},
		{"grid", auto, shapeOf(grid), false, false, false},
		{"R-MAT", auto, shapeOf(rmat), false, false, false},
		{"sparse, a vertex above 16", auto, shapeOf(listed), false, false, false},
		{"sparse, a hub", auto, shapeOf(hub), false, false, false},
		{"R-MAT forced", forced, shapeOf(rmat), false, false, true},
		{"path never", never, shapeOf(path), false, false, false},
		{"path forest", forced, shapeOf(path), true, false, false},
		{"path wide", forced, shapeOf(path), false, true, false},
	} {
		if got := c.opts.hookByPriority(c.shape, c.forest, c.wide); got != c.wants {
			t.Errorf("%s: hooks by priority %v, want %v", c.name, got, c.wants)
		}
	}
	if !shapeOf(path).sparse || shapeOf(grid).sparse || !shapeOf(&ecl.Graph{Offsets: []int64{0}}).sparse {
		t.Errorf("sparse: path %v, grid %v, empty %v", shapeOf(path).sparse, shapeOf(grid).sparse, shapeOf(&ecl.Graph{Offsets: []int64{0}}).sparse)
	}
}
