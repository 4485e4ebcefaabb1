package graphio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// compress returns data compressed with m (not bzip2, which Go cannot
// write).
func compress(t testing.TB, data []byte, m fileio.Compression) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	var err error
	switch m {
	case fileio.Gzip:
		w = gzip.NewWriter(&buf)
	case fileio.Zstd:
		w, err = zstd.NewWriter(&buf)
	case fileio.XZ:
		w, err = xz.NewWriter(&buf)
	default:
		t.Fatalf("cannot compress with %v", m)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// writable are the methods compress supports, with their extensions.
var writable = map[fileio.Compression]string{fileio.Gzip: ".gz", fileio.Zstd: ".zst", fileio.XZ: ".xz"}

func TestReadCompressedFile(t *testing.T) {
	cases := map[string][]byte{"g.egr": smallEGR, "g.mtx": []byte(smallMTX), "g.gr": []byte(smallGR),
		"g.txt": []byte(smallEdgeList), "g.csv": []byte("from,to\n1,2\n3,4\n")}
	for name, data := range cases {
		want, err := ReadFile(writeTemp(t, name, data), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for m, ext := range writable {
			z := compress(t, data, m)
			for _, path := range []string{name + ext, strings.ToUpper(name + ext)} {
				got, err := ReadFile(writeTemp(t, path, z), ReadOptions{})
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				if d := sameGraph(got, want); d != "" {
					t.Errorf("%s: %s", path, d)
				}
				if got.Stats.Compression != m.String() || got.Stats.Bytes != int64(len(data)) {
					t.Errorf("%s: stats %+v", path, got.Stats)
				}
			}
			// A text file compressed without saying so is recognized by its
			// first bytes; an .egr is not.
			got, err := ReadFile(writeTemp(t, name, z), ReadOptions{})
			if name == "g.egr" {
				if err == nil {
					t.Errorf("%s: compressed .egr read as plain", name)
				}
			} else if err != nil || sameGraph(got, want) != "" {
				t.Errorf("%s compressed as %v without its extension: %v", name, m, err)
			}
		}
	}
}

func TestReadCompressedBzip2(t *testing.T) {
	// Made by the bzip2 tool: testdata/edges.txt of package fileio.
	dir := filepath.Join("..", "internal", "fileio", "testdata")
	want, err := ReadFile(filepath.Join(dir, "edges.txt"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".bz2", ".gz", ".xz", ".zst"} {
		got, err := ReadFile(filepath.Join(dir, "edges.txt"+ext), ReadOptions{Threads: 2})
		if err != nil || sameGraph(got, want) != "" {
			t.Errorf("%s: %v", ext, err)
		}
	}
}

func TestReadCompressedErrors(t *testing.T) {
	_, err := ReadFile(writeTemp(t, "g.txt.gz", []byte(smallEdgeList)), ReadOptions{})
	testkit.WantError(t, err, "formats: ", "g.txt.gz: not gzip data")
	_, err = ReadFile(writeTemp(t, "g.gr.xz", []byte(smallGR)), ReadOptions{})
	testkit.WantError(t, err, "g.gr.xz: not xz data")
	z := compress(t, []byte(strings.Repeat("1 2\n", 10000)), fileio.Gzip)
	_, err = ReadFile(writeTemp(t, "g.txt.gz", z[:len(z)-20]), ReadOptions{})
	testkit.WantError(t, err, "g.txt.gz: line ", "read: gzip stream: truncated")
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("%v does not wrap io.ErrUnexpectedEOF", err)
	}
	z = compress(t, []byte(smallGR+"9 9\n"), fileio.XZ)
	_, err = ReadFile(writeTemp(t, "g.gr.xz", z), ReadOptions{})
	testkit.WantError(t, err, "g.gr.xz: line 9: more edges than the 4 the p line promised")
	_, err = ReadFile(writeTemp(t, "g.gz", z), ReadOptions{})
	testkit.WantError(t, err, "no file extension")
	_, err = ReadFile(writeTemp(t, "g.bin.zst", z), ReadOptions{})
	testkit.WantError(t, err, `unknown graph file extension ".bin"`)
	// Compressed stdin, given its format.
	lg, err := ReadFileAs("-", FormatDIMACS, ReadOptions{}, bytes.NewReader(compress(t, []byte(smallGR), fileio.Zstd)))
	if err != nil || lg.Graph.NumVertices() != 6 {
		t.Errorf("compressed stdin: %v", err)
	}
	// Graphs are written plain only.
	err = WriteFile(filepath.Join(t.TempDir(), "g.egr.gz"), lg.Graph)
	testkit.WantError(t, err, "cannot write compressed graph files (gzip)")
}

func TestSharedGraphsCompressed(t *testing.T) {
	// The acceptance: .txt.gz and .gr.xz inputs give the same
	// graphs, and so the same counts, as the plain files.
	dataDir := testkit.Dir(t)
	files := map[string][]fileio.Compression{
		"graphs/CA-GrQc.txt":           {fileio.Gzip, fileio.Zstd},
		"graphs/facebook_combined.txt": {fileio.Gzip},
		"graphs/pace16_NY.gr":          {fileio.XZ, fileio.Gzip},
		"graphs/lagraph_karate.mtx":    {fileio.XZ},
		"graphs/cugraph_ca-HepTh.csv":  {fileio.Zstd},
	}
	for rel, methods := range files {
		path := filepath.Join(dataDir, rel)
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			t.Logf("%s not present", path)
			continue
		}
		want, err := ReadFile(path, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range methods {
			if testing.Short() && len(data) > 1<<20 {
				continue // the xz writer is slow, and the race detector too
			}
			zpath := writeTemp(t, filepath.Base(rel)+writable[m], compress(t, data, m))
			got, err := ReadFile(zpath, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if d := sameGraph(got, want); d != "" {
				t.Errorf("%s: %s", zpath, d)
			}
		}
	}
}
