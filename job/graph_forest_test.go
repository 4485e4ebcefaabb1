package job

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/formats/graphio"
)

// TestVerifyForestFileCatchesBadFile checks that a forest file read back
// is rejected when it is not a spanning forest of the graph: too few
// edges, a cycle, a repeated edge, an edge not in the graph, a bad line.
func TestVerifyForestFileCatchesBadFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.mtx")
	os.WriteFile(in, []byte("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"), 0o644)
	lg, err := graphio.ReadFile(in, graphio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids := newVertexIDs(lg)
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("1 2\n2 3\n"), 0o644)
	if err := verifyForestFile(good, lg.Graph, ids); err != nil {
		t.Errorf("a spanning forest rejected: %v", err)
	}
	bad := filepath.Join(dir, "bad.txt")
	for _, content := range []string{"1 2\n", "1 2\n1 3\n", "1 2\n2 1\n", "1 2\n2 4\n", "1 2 3\n"} {
		os.WriteFile(bad, []byte(content), 0o644)
		if err := verifyForestFile(bad, lg.Graph, ids); err == nil {
			t.Errorf("forest %q accepted", content)
		}
	}
}
