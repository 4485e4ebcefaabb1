package graphio

import (
	"bufio"
	"bytes"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// appendEdgeLines appends SNAP-style edge lines to b, tab separated,
// until it holds size bytes: line i joins vertex i mod n to a random
// vertex of n.
func appendEdgeLines(b []byte, size int, n uint64, r *rand.Rand, i *uint64) []byte {
	for len(b) < size {
		b = strconv.AppendUint(b, *i%n, 10)
		b = append(b, '\t')
		b = strconv.AppendUint(b, r.Uint64N(n), 10)
		b = append(b, '\n')
		*i++
	}
	return b
}

// benchEdgeList returns about size bytes of edge lines on n vertices.
func benchEdgeList(size int, n uint64) []byte {
	var i uint64
	return appendEdgeLines(make([]byte, 0, size+64), size, n, rand.New(rand.NewPCG(1, 2)), &i)
}

// BenchmarkParseEdgeListChunk measures the edge-list chunk parser alone,
// on one goroutine.
func BenchmarkParseEdgeListChunk(b *testing.B) {
	data := benchEdgeList(fileio.DefaultChunkBytes, 1<<24)
	c := &fileio.LineChunk{Data: data, Lines: bytes.Count(data, []byte{'\n'})}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if res := parseEdgeListChunk(c); res.err != nil {
			b.Fatal(res.err)
		}
	}
}

// BenchmarkReadEdgeList measures ReadEdgeList on 64 MB in memory, parsing
// and building the graph, on all cores.
func BenchmarkReadEdgeList(b *testing.B) {
	data := benchEdgeList(64<<20, 1<<20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadEdgeList(bytes.NewReader(data), ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadBigEdgeList reads a large generated edge list and reports its
// throughput: CCLABEL_GRAPHIO_BIG_MB=1024 for the 1 GB file,
// written to a temporary folder, or to CCLABEL_GRAPHIO_BIG_FILE=PATH when
// that file does not exist yet (an existing one is read as it is);
// CCLABEL_GRAPHIO_MIN_MBPS=150 fails below a parse rate. CI runs the
// small inputs of the other tests instead.
func TestReadBigEdgeList(t *testing.T) {
	path := os.Getenv("CCLABEL_GRAPHIO_BIG_FILE")
	if mb, _ := strconv.Atoi(os.Getenv("CCLABEL_GRAPHIO_BIG_MB")); mb > 0 {
		if path == "" {
			path = filepath.Join(t.TempDir(), "big.txt")
		}
		if _, err := os.Stat(path); err != nil {
			writeBigEdgeList(t, path, int64(mb)<<20, 1<<24)
		}
	}
	if path == "" {
		t.Skip("set CCLABEL_GRAPHIO_BIG_MB or CCLABEL_GRAPHIO_BIG_FILE")
	}
	start := time.Now()
	lg, err := ReadFile(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := lg.Stats
	parse := float64(s.Bytes) / 1e6 / s.Parse.Seconds()
	t.Logf("%s: %d bytes, %d vertices, %d arcs in %.2fs: parse %.2fs (%.0f MB/s), build %.2fs; %.0f MB/s in all",
		path, s.Bytes, lg.Graph.NumVertices(), lg.Graph.NumEdges(), time.Since(start).Seconds(),
		s.Parse.Seconds(), parse, s.Build.Seconds(), s.MBPerSecond())
	if err := lg.Graph.Validate(); err != nil {
		t.Fatal(err)
	}
	if min, _ := strconv.ParseFloat(os.Getenv("CCLABEL_GRAPHIO_MIN_MBPS"), 64); parse < min {
		t.Errorf("parsed at %.0f MB/s, below %.0f", parse, min)
	}
}

// writeBigEdgeList writes size bytes of edge lines on n vertices to path.
func writeBigEdgeList(t *testing.T, path string, size int64, n uint64) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	var i uint64
	buf := make([]byte, 0, 1<<20+64)
	for written := int64(0); written < size; {
		buf = appendEdgeLines(buf[:0], int(min(1<<20, size-written)), n, r, &i)
		w.Write(buf)
		written += int64(len(buf))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
