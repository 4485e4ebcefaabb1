package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/job"
	"github.com/klauspost/compress/gzip"
)

func TestGraphCompressedInput(t *testing.T) {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte("c two components\np tw 5 3\n1 2\n2 3\n4 5\n"))
	w.Close()
	path := filepath.Join(t.TempDir(), "g.gr.gz")
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "graph", "--json", path)
	var s job.GraphSummary
	if err := json.Unmarshal([]byte(r.stdout), &s); r.code != 0 || err != nil {
		t.Fatalf("exit %d, %v; stderr %q", r.code, err, r.stderr)
	}
	if s.Components != 2 || s.Read.Compression != "gzip" || s.Read.Bytes != 38 || s.Read.MBPerS <= 0 {
		t.Errorf("summary %+v", s)
	}
	if !strings.Contains(r.stderr, "MB/s, gzip)") {
		t.Errorf("human summary %q has no read rate", r.stderr)
	}
	// Compressed text on stdin, recognized by its first bytes.
	r = runCLI(t, z.String(), "graph", "--format", "gr", "-")
	if r.code != 0 || !strings.Contains(r.stderr, "2 components") {
		t.Errorf("compressed stdin: exit %d, stderr %q", r.code, r.stderr)
	}
}
