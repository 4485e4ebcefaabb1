package graphio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/testkit"
)

// writeTemp writes data to name in a fresh temporary folder.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadGraphFile(t *testing.T) {
	cases := []struct {
		name                string
		data                []byte
		vertices, arcs, ccs int
		warnings            int
	}{
		{"g.egr", smallEGR, 6, 8, 3, 0},
		{"g.MTX", []byte(smallMTX), 6, 8, 3, 0},
		{"g.gr", []byte(smallGR), 6, 6, 3, 0},
		{"g.txt", []byte(smallEdgeList), 6, 8, 3, 0},
		{"g.csv", []byte("from,to\n1,2\n3,4\n"), 4, 4, 2, 1},
		{"g.tsv", []byte("1\t2\n3\t4\n"), 4, 4, 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lg, err := ReadFile(writeTemp(t, c.name, c.data), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkLoaded(t, lg, c.vertices, c.arcs, c.ccs)
			if len(lg.Warnings) != c.warnings {
				t.Errorf("warnings = %q", lg.Warnings)
			}
		})
	}
}

func TestReadGraphFileErrors(t *testing.T) {
	path := writeTemp(t, "bad.txt", []byte("1 2\nfrom to\n"))
	_, err := ReadFile(path, ReadOptions{})
	testkit.WantError(t, err, "formats: "+path+": line 2: ", `"from"`)
	// Header detection is for .csv only.
	path = writeTemp(t, "bad.el", []byte("from to\n1 2\n"))
	_, err = ReadFile(path, ReadOptions{})
	testkit.WantError(t, err, path+": line 1:")
	path = writeTemp(t, "bad.egr", smallEGR[:30])
	_, err = ReadFile(path, ReadOptions{})
	testkit.WantError(t, err, "formats: "+path+": truncated: header says 6 nodes and 8 edges (need 68 bytes), file has 30")
	_, err = ReadFile(filepath.Join(t.TempDir(), "missing.mtx"), ReadOptions{})
	testkit.WantError(t, err, "missing.mtx")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%v does not wrap os.ErrNotExist", err)
	}
	_, err = ReadFile("graph.bin", ReadOptions{})
	testkit.WantError(t, err, `".bin"`)
	_, err = Read(strings.NewReader(""), -1, Format(99), ReadOptions{})
	testkit.WantError(t, err, "unknown graph format GraphFormat(99)")
}

func TestReadGraph(t *testing.T) {
	for _, c := range []struct {
		f    Format
		data []byte
	}{
		{FormatEGR, smallEGR}, {FormatMatrixMarket, []byte(smallMTX)},
		{FormatEdgeList, []byte(smallEdgeList)}, {FormatDIMACS, []byte(smallGR)},
	} {
		for _, size := range []int64{int64(len(c.data)), -1} {
			lg, err := Read(bytes.NewReader(c.data), size, c.f, ReadOptions{Threads: 1})
			if err != nil {
				t.Fatalf("%v, size %d: %v", c.f, size, err)
			}
			if n, _ := components(t, lg.Graph); n != 3 {
				t.Errorf("%v: %d components, want 3", c.f, n)
			}
		}
	}
}

func TestWriteGraphFile(t *testing.T) {
	g, err := ecl.FromEdges(4, []int32{0, 2}, []int32{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.EGR")
	if err := WriteFile(path, g); err != nil {
		t.Fatal(err)
	}
	lg, err := ReadFile(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lg.Graph.Offsets, g.Offsets) || !slices.Equal(lg.Graph.Neighbors, g.Neighbors) {
		t.Error("graph changed on the way through the file")
	}
	testkit.WantError(t, WriteFile(filepath.Join(dir, "out.mtx"), g), "out.mtx", "only .egr")
	testkit.WantError(t, WriteFile(filepath.Join(dir, "out"), g), "no file extension")
	bad := &ecl.Graph{Offsets: []int64{0, 1}, Neighbors: []int32{5}}
	testkit.WantError(t, WriteFile(filepath.Join(dir, "bad.egr"), bad), "bad.egr", "invalid graph")
	testkit.WantError(t, WriteFile(filepath.Join(dir, "nodir", "x.egr"), g), "formats: ", "nodir")
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only out.EGR", len(entries))
	}
}

func TestRealGraphs(t *testing.T) {
	cases := testkit.Graphs(t)
	dataDir := testkit.Dir(t)
	if len(cases) == 0 {
		t.Fatal("graphs.json lists no graphs")
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.File), func(t *testing.T) {
			path := filepath.Join(dataDir, c.File)
			if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
				t.Skipf("%s not present", path)
			}
			lg, err := ReadFile(path, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := lg.Graph.Validate(); err != nil || !lg.Graph.IsSymmetric(0) {
				t.Fatalf("invalid or asymmetric graph: %v", err)
			}
			count, largest := components(t, lg.Graph)
			if n := lg.Graph.NumVertices(); n != c.Vertices || count != c.Components || largest != c.Largest {
				t.Errorf("vertices %d, components %d, largest %d; want %d, %d, %d",
					n, count, largest, c.Vertices, c.Components, c.Largest)
			}
			if c.ComponentsDropZeros == 0 {
				return
			}
			lg, err = ReadFile(path, ReadOptions{DropZeros: true})
			if err != nil {
				t.Fatal(err)
			}
			if count, _ := components(t, lg.Graph); count != c.ComponentsDropZeros {
				t.Errorf("with DropZeros: %d components, want %d", count, c.ComponentsDropZeros)
			}
		})
	}
}

func BenchmarkReadGraphFileNY(b *testing.B) {
	path := testkit.Path("graphs/pace16_NY.gr")
	if _, err := os.Stat(path); err != nil {
		b.Skip("shared test data not present")
	}
	for b.Loop() {
		if _, err := ReadFile(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
