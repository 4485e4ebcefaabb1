package graphio

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestEGR64RoundTrip(t *testing.T) {
	small, err := ecl.FromEdges(7, []int32{0, 1, 3, 5}, []int32{1, 2, 4, 6})
	if err != nil {
		t.Fatal(err)
	}
	isolated, err := ecl.FromEdges(3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*ecl.Graph{small, {}, isolated} {
		var buf bytes.Buffer
		if err := WriteEGR64(&buf, g); err != nil {
			t.Fatal(err)
		}
		n := max(g.NumVertices(), 0)
		if want := 16 + 8*(n+1) + 4*g.NumEdges(); buf.Len() != want {
			t.Fatalf("wrote %d bytes, want %d", buf.Len(), want)
		}
		for _, size := range []int64{int64(buf.Len()), -1} {
			lg, err := ReadEGR64(bytes.NewReader(buf.Bytes()), size, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := g.Offsets
			if len(want) == 0 {
				want = []int64{0}
			}
			if !slices.Equal(lg.Graph.Offsets, want) || !slices.Equal(lg.Graph.Neighbors, g.Neighbors) {
				t.Fatalf("size %d: round trip changed the graph: %v %v", size, lg.Graph.Offsets, lg.Graph.Neighbors)
			}
		}
	}
}

// TestEGR64File writes a generated graph to .egr64 and .egr files by
// name and reads both back: the same graph, and the .egr64 file is the
// .egr file with wider header and offsets.
func TestEGR64File(t *testing.T) {
	g, err := gen.RMATGraph(10, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"g.egr", "g.egr64"} {
		path := filepath.Join(dir, name)
		if err := WriteFile(path, g); err != nil {
			t.Fatal(err)
		}
		lg, err := ReadFile(path, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(lg.Graph.Offsets, g.Offsets) || !slices.Equal(lg.Graph.Neighbors, g.Neighbors) {
			t.Fatalf("%s: read back a different graph", name)
		}
	}
	narrow, _ := os.ReadFile(filepath.Join(dir, "g.egr"))
	wide, _ := os.ReadFile(filepath.Join(dir, "g.egr64"))
	if d := len(wide) - len(narrow); d != 8+4*len(g.Offsets) {
		t.Errorf(".egr64 is %d bytes longer than .egr, want %d", d, 8+4*len(g.Offsets))
	}
}

func TestReadEGR64Errors(t *testing.T) {
	cases := []struct {
		name  string
		data  []byte
		parts []string
	}{
		{"empty", nil, []string{"empty input", ".egr64", "16-byte"}},
		{"short header", egrBytes(1, 0, 0), []string{"truncated", "16-byte .egr64 header"}},
		{"negative", egr64Bytes(-1, 0), []string{"-1 nodes"}},
		{"too many nodes", egr64Bytes(1<<31, 0), []string{"2147483648 nodes, more than the limit"}},
		{"edges overflow", egr64Bytes(1, 1<<62), []string{"bad .egr64 header", "edges"}},
		{"header lies", egr64Bytes(1000000000, 1<<40, 0, 1), []string{"truncated", "1000000000 nodes", "file has 24"}},
		{"neighbour out of range", egr64Bytes(2, 2, 0, 1, 2, 1, 7), []string{"invalid graph", "neighbour 7"}},
		{"non-monotone", egr64Bytes(3, 2, 0, 2, 1, 2, 1, 0), []string{"invalid graph", "not monotone"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, size := range []int64{int64(len(c.data)), -1} {
				_, err := ReadEGR64(bytes.NewReader(c.data), size, ReadOptions{})
				testkit.WantError(t, err, c.parts...)
			}
		})
	}
}

// TestReadEGR64LyingHeaderStream: a header promising 2^40 arcs on a short
// stream fails without allocating them.
func TestReadEGR64LyingHeaderStream(t *testing.T) {
	data := append(egr64Bytes(2000000000, 1<<40), make([]byte, 1000)...)
	alloc := allocated(func() {
		_, err := ReadEGR64(bytes.NewReader(data), -1, ReadOptions{})
		testkit.WantError(t, err, "truncated")
	})
	if alloc > 4<<20 {
		t.Errorf("allocated %d bytes for a short input", alloc)
	}
}
