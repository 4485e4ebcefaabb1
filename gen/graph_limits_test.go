package gen

import "testing"

// TestGraphEdgeBound: generators refuse more than MaxEdges edges before
// allocating them.
func TestGraphEdgeBound(t *testing.T) {
	if _, err := RMATGraph(30, 100, 1); err == nil {
		t.Error("R-MAT of 100 * 2^30 edges accepted")
	}
	if _, err := RandomGraph(1<<30, 1<<10, 1); err == nil {
		t.Error("random graph of 2^40 edges accepted")
	}
}
