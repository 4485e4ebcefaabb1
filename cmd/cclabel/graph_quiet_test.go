package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGraphQuiet checks that graph -q and --quiet drop the summary lines
// on stderr and keep the outputs, the warnings and the errors.
func TestGraphQuiet(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "g.el")
	os.WriteFile(plain, []byte("1 2\n3 4\n"), 0o644)
	// 70000 declared vertices, one entry: a warning.
	sparse := filepath.Join(dir, "sparse.mtx")
	os.WriteFile(sparse, []byte("%%MatrixMarket matrix coordinate pattern symmetric\n70000 70000 1\n1 2\n"), 0o644)
	warning := "cclabel: warning: " + sparse + ": size line declares 70000 vertices, but only 2 of them appear in its 1 entry: the other 69998 are isolated\n"
	bad := filepath.Join(dir, "bad.gr")
	os.WriteFile(bad, []byte("p sp 2 1\na 1 3 1\n"), 0o644)
	forest := filepath.Join(dir, "forest.txt")
	cases := []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderr     string // exact, or a prefix when it ends in "..."
		wantForest bool
	}{
		{"loud", []string{plain, "--labels", "-"}, 0, "1 1\n2 1\n3 2\n4 2\n", plain + ": 4 vertices, 4 edges, 2 components (largest 2); read ...", false},
		{"-q", []string{plain, "--labels", "-", "-q"}, 0, "1 1\n2 1\n3 2\n4 2\n", "", false},
		{"--quiet", []string{"--quiet", plain, "--labels", "-"}, 0, "1 1\n2 1\n3 2\n4 2\n", "", false},
		{"forest", []string{plain, "-q", "--forest", forest, "--verify"}, 0, "", "", true},
		{"json", []string{plain, "-q", "--json"}, 0, "{...", "", false},
		{"warning", []string{sparse, "-q"}, 0, "", warning, false},
		{"error", []string{bad, "-q"}, 1, "", "cclabel: formats: " + bad + ": line 2: edge (1, 3) out of range [1, 2]\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(forest)
			r := runCLI(t, "", append([]string{"graph"}, c.args...)...)
			if r.code != c.code || !matches(r.stdout, c.stdout) || !matches(r.stderr, c.stderr) {
				t.Fatalf("exit %d, stdout %.80q, stderr %q; want exit %d, stdout %.80q, stderr %q",
					r.code, r.stdout, r.stderr, c.code, c.stdout, c.stderr)
			}
			if _, err := os.Stat(forest); (err == nil) != c.wantForest {
				t.Errorf("forest written: %v, want %v", err == nil, c.wantForest)
			}
		})
	}
}

// matches reports whether got is want, or starts with want's text before
// a final "...".
func matches(got, want string) bool {
	if prefix, ok := strings.CutSuffix(want, "..."); ok {
		return strings.HasPrefix(got, prefix)
	}
	return got == want
}

// TestGraphDeclaredVertices checks a Matrix Market file whose size line
// declares far more vertices than its entries touch: a warning, every
// untouched vertex its own component, and a refusal under --max-vertices
// with the reader's message.
func TestGraphDeclaredVertices(t *testing.T) {
	const n = 100000
	dir := t.TempDir()
	in := filepath.Join(dir, "sparse.mtx")
	os.WriteFile(in, fmt.Appendf(nil, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%d %d 1\n3 %d\n", n, n, n), 0o644)
	r := runCLI(t, "", "graph", in, "--labels", "-", "--backend", "cpu")
	wantWarning := fmt.Sprintf("cclabel: warning: %s: size line declares %d vertices, but only 2 of them appear in its 1 entry: the other %d are isolated\n", in, n, n-2)
	if r.code != 0 || !strings.HasPrefix(r.stderr, wantWarning) {
		t.Fatalf("exit %d, stderr %q; want the warning %q", r.code, r.stderr, wantWarning)
	}
	// Vertices 3 and n share a label; every other vertex has its own, in
	// order of first vertex.
	var want strings.Builder
	for v := 1; v <= n; v++ {
		label := v
		if v == n {
			label = 3
		}
		fmt.Fprintf(&want, "%d %d\n", v, label)
	}
	if r.stdout != want.String() {
		t.Errorf("labels differ from the oracle's (%d bytes, want %d)", len(r.stdout), want.Len())
	}
	r = runCLI(t, "", "graph", in, "--max-vertices", "99999")
	assertCleanFailure(t, r, in)
	if !strings.Contains(r.stderr, "line 2: matrix dimension 100000 exceeds the limit of 99999 vertices") {
		t.Errorf("stderr %q", r.stderr)
	}
}
