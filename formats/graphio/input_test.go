package graphio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	for name, want := range map[string]Format{"egr": FormatEGR, "MM": FormatMatrixMarket, "mtx": FormatMatrixMarket,
		"gr": FormatDIMACS, "dimacs": FormatDIMACS, "edgelist": FormatEdgeList, "tsv": FormatEdgeList} {
		if got, err := ParseFormat(name); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := ParseFormat("graphml"); err == nil || !strings.Contains(err.Error(), `"graphml"`) {
		t.Errorf("ParseFormat(graphml): %v", err)
	}
}

func TestReadFileAs(t *testing.T) {
	edges := "0 1\n1 2\n5 6\n"
	path := filepath.Join(t.TempDir(), "g.data") // an extension no reader knows
	if err := os.WriteFile(path, []byte(edges), 0o644); err != nil {
		t.Fatal(err)
	}
	lg, err := ReadFileAs(path, FormatEdgeList, ReadOptions{}, nil)
	if err != nil || lg.Graph.NumVertices() != 5 || lg.Graph.NumEdges() != 6 {
		t.Fatalf("file as edge list: %v", err)
	}
	lg, err = ReadFileAs("-", FormatEdgeList, ReadOptions{}, strings.NewReader(edges))
	if err != nil || lg.Graph.NumVertices() != 5 || lg.Graph.NumEdges() != 6 {
		t.Fatalf("stdin as edge list: %v", err)
	}
	if _, err := ReadFileAs("-", 0, ReadOptions{}, strings.NewReader(edges)); err == nil {
		t.Error("stdin without a format read")
	}
	if _, err := ReadFileAs(path, 0, ReadOptions{}, nil); err == nil || !strings.Contains(err.Error(), "unknown graph file extension") {
		t.Errorf("by extension: %v", err)
	}
	if _, err := ReadFileAs("-", FormatMatrixMarket, ReadOptions{}, strings.NewReader(edges)); err == nil || !strings.HasPrefix(err.Error(), "stdin: ") {
		t.Errorf("bad stdin: %v", err)
	}
}
