package graphio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/internal/csrfile"
	"github.com/cclabel/cclabel/internal/testkit"
)

// smallEGR is a triangle 0-1-2, an isolated vertex 3 and an edge 4-5.
var smallEGR = egrBytes(6, 8, 0, 2, 4, 6, 6, 7, 8, 1, 2, 0, 2, 0, 1, 5, 4)

// readEGRBoth reads data with its size known and unknown, checks that
// both agree and returns the first result.
func readEGRBoth(t *testing.T, data []byte) (*LoadedGraph, error) {
	t.Helper()
	lg, err := ReadEGR(bytes.NewReader(data), int64(len(data)), ReadOptions{})
	lg2, err2 := ReadEGR(iotest.HalfReader(bytes.NewReader(data)), -1, ReadOptions{})
	if (err == nil) != (err2 == nil) {
		t.Fatalf("size known: %v; size unknown: %v", err, err2)
	}
	if err == nil && (!slices.Equal(lg.Graph.Offsets, lg2.Graph.Offsets) ||
		!slices.Equal(lg.Graph.Neighbors, lg2.Graph.Neighbors)) {
		t.Fatal("size known and unknown give different graphs")
	}
	// The same bytes in a file that is mapped give the same graph, and
	// the file is left as it was (the reader sorts unsorted lists in place).
	path := filepath.Join(t.TempDir(), "g.egr")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(m int64) { csrfile.MapMinBytes = m }(csrfile.MapMinBytes)
	csrfile.MapMinBytes = 0
	lg3, err3 := ReadFile(path, ReadOptions{Map: true})
	if (err == nil) != (err3 == nil) {
		t.Fatalf("read: %v; mapped: %v", err, err3)
	}
	if err == nil {
		if !slices.Equal(lg.Graph.Offsets, lg3.Graph.Offsets) || !slices.Equal(lg.Graph.Neighbors, lg3.Graph.Neighbors) ||
			!slices.Equal(lg.Warnings, lg3.Warnings) || lg3.Stats.Bytes != int64(len(data)) {
			t.Fatal("read and mapped give different graphs")
		}
		if mapped := lg3.release != nil; mapped != (len(lg3.Warnings) == 0) {
			t.Errorf("mapped %v, warnings %q", mapped, lg3.Warnings)
		}
		if err := lg3.Close(); err != nil {
			t.Fatal(err)
		}
		if err := lg3.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, data) {
			t.Fatalf("the mapped file changed (%v)", err)
		}
	}
	return lg, err
}

func TestReadEGRSmall(t *testing.T) {
	lg, err := readEGRBoth(t, smallEGR)
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 6, 8, 3)
	if lg.IDs != nil || lg.Base != 0 || lg.ID(5) != 5 || len(lg.Warnings) != 0 {
		t.Errorf("IDs %v, Base %d, ID(5) %d, warnings %q", lg.IDs, lg.Base, lg.ID(5), lg.Warnings)
	}
}

func TestReadEGRWeights(t *testing.T) {
	data := append(slices.Clone(smallEGR), egrBytes(1, 2, 3, 4, 5, 6, 7, 8)...)
	lg, err := readEGRBoth(t, data)
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 6, 8, 3)
}

func TestReadEGRAsymmetric(t *testing.T) {
	// Arcs 0->1 and 2->1 only, with an unsorted list and a repeat at 3.
	data := egrBytes(4, 5, 0, 1, 1, 2, 5, 1, 1, 2, 0, 2)
	lg, err := readEGRBoth(t, data)
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 4, 8, 1)
	if len(lg.Warnings) != 1 || lg.Warnings[0] != ".egr graph was not symmetric: symmetrized" {
		t.Errorf("warnings = %q", lg.Warnings)
	}
}

func TestReadEGRUnsorted(t *testing.T) {
	data := egrBytes(3, 4, 0, 2, 3, 4, 2, 1, 0, 0)
	lg, err := readEGRBoth(t, data)
	if err != nil {
		t.Fatal(err)
	}
	checkLoaded(t, lg, 3, 4, 1)
	if !slices.Equal(lg.Graph.Neighbors, []int32{1, 2, 0, 0}) || len(lg.Warnings) != 0 {
		t.Errorf("neighbours %v, warnings %q", lg.Graph.Neighbors, lg.Warnings)
	}
}

func TestEGRRoundTrip(t *testing.T) {
	g, err := ecl.FromEdges(7, []int32{0, 1, 3, 5}, []int32{1, 2, 4, 6})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteEGR(&buf, g); err != nil {
		t.Fatal(err)
	}
	if want := 8 + 4*8 + 4*8; buf.Len() != want {
		t.Fatalf("wrote %d bytes, want %d", buf.Len(), want)
	}
	lg, err := readEGRBoth(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lg.Graph.Offsets, g.Offsets) || !slices.Equal(lg.Graph.Neighbors, g.Neighbors) {
		t.Fatalf("round trip changed the graph: %v %v", lg.Graph.Offsets, lg.Graph.Neighbors)
	}
	checkLoaded(t, lg, 7, 8, 3)
}

func TestWriteEGREmptyAndInvalid(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteEGR(&buf, &ecl.Graph{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), egrBytes(0, 0, 0)) {
		t.Errorf("empty graph written as %v", buf.Bytes())
	}
	lg, err := readEGRBoth(t, buf.Bytes())
	if err != nil || lg.Graph.NumVertices() != 0 {
		t.Fatalf("reading the empty graph: %v", err)
	}
	err = WriteEGR(io.Discard, &ecl.Graph{Offsets: []int64{0, 2}, Neighbors: []int32{0}})
	testkit.WantError(t, err, "cannot write", "invalid graph")
	testkit.WantError(t, WriteEGR(io.Discard, nil), "nil graph")
	boom := errors.New("boom")
	g, _ := ecl.FromEdges(2, []int32{0}, []int32{1})
	err = WriteEGR(errWriter{boom}, g)
	if !errors.Is(err, boom) {
		t.Errorf("write error %v does not wrap %v", err, boom)
	}
}

// errWriter fails every write.
type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

func TestReadEGRErrors(t *testing.T) {
	cases := []struct {
		name  string
		data  []byte
		parts []string
	}{
		{"empty", nil, []string{"empty input"}},
		{"short header", []byte{1, 0, 0}, []string{"truncated", "8-byte"}},
		{"negative", egrBytes(-1, 0, 0), []string{"-1 nodes"}},
		{"truncated", smallEGR[:len(smallEGR)-4],
			[]string{"truncated: header says 6 nodes and 8 edges (need 68 bytes), file has 64"}},
		{"header lies", egrBytes(1000000000, 2000000000, 0, 1), []string{"truncated", "1000000000 nodes", "file has 16"}},
		{"trailing", append(slices.Clone(smallEGR), 1, 2, 3), []string{"unexpected 3 trailing bytes"}},
		{"half weights", append(slices.Clone(smallEGR), egrBytes(1, 2, 3)...),
			[]string{"unexpected 12 trailing bytes", "weight array would be 32 bytes"}},
		{"non-monotone", egrBytes(3, 2, 0, 2, 1, 2, 1, 0), []string{"invalid graph", "not monotone"}},
		{"bad first offset", egrBytes(2, 1, 1, 1, 1, 0), []string{"invalid graph", "offsets[0] = 1"}},
		{"bad last offset", egrBytes(2, 2, 0, 1, 1, 1, 0), []string{"invalid graph", "offsets[2] = 1"}},
		{"neighbour out of range", egrBytes(2, 2, 0, 1, 2, 1, 7), []string{"invalid graph", "neighbour 7", "out of range"}},
		{"negative neighbour", egrBytes(2, 2, 0, 1, 2, -1, 0), []string{"invalid graph", "neighbour -1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readEGRBoth(t, c.data)
			testkit.WantError(t, err, c.parts...)
			if c.name == "neighbour out of range" && !errors.Is(err, ecl.ErrInvalidGraph) {
				t.Errorf("%v does not wrap ecl.ErrInvalidGraph", err)
			}
		})
	}
}

func TestReadEGRStreamErrors(t *testing.T) {
	// Without a size, the trailing bytes are found after the arrays.
	_, err := ReadEGR(bytes.NewReader(append(slices.Clone(smallEGR), 9)), -1, ReadOptions{})
	testkit.WantError(t, err, "unexpected 1 trailing bytes")
	// A size that understates the input.
	_, err = ReadEGR(bytes.NewReader(append(slices.Clone(smallEGR), 9)), int64(len(smallEGR)), ReadOptions{})
	testkit.WantError(t, err, "longer than its given size")
	// A read error is passed on.
	boom := errors.New("boom")
	_, err = ReadEGR(io.MultiReader(bytes.NewReader(smallEGR[:20]), iotest.ErrReader(boom)), -1, ReadOptions{})
	if !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap %v", err, boom)
	}
}

// TestReadEGRLyingHeaderStream checks that a header promising gigabytes on
// a short stream fails without allocating them.
func TestReadEGRLyingHeaderStream(t *testing.T) {
	data := append(egrBytes(2000000000, 2000000000), make([]byte, 1000)...)
	alloc := allocated(func() {
		_, err := ReadEGR(bytes.NewReader(data), -1, ReadOptions{})
		testkit.WantError(t, err, "truncated", "file has 1008")
	})
	if alloc > 4<<20 {
		t.Errorf("allocated %d bytes for a 1008-byte input", alloc)
	}
}

// TestReadEGRMemory checks that reading a file of known size allocates the
// CSR arrays, its buffers and little else.
func TestReadEGRMemory(t *testing.T) {
	const n, deg = 1 << 18, 16
	us, vs := make([]int32, 0, n*deg/2), make([]int32, 0, n*deg/2)
	for v := range int32(n) {
		for k := int32(1); k <= deg/2; k++ {
			us, vs = append(us, v), append(vs, (v+k*7919)%n)
		}
	}
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteEGR(&buf, g); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	var lg *LoadedGraph
	alloc := allocated(func() {
		lg, err = ReadEGR(bytes.NewReader(data), int64(len(data)), ReadOptions{Threads: 2})
	})
	if err != nil {
		t.Fatal(err)
	}
	if lg.Graph.NumEdges() != g.NumEdges() || len(lg.Warnings) != 0 {
		t.Fatalf("read %d arcs, warnings %q", lg.Graph.NumEdges(), lg.Warnings)
	}
	// The file's int32 offsets are held as int64s; the offsets are widened
	// through a buffer of one piece, and the symmetry check holds up to one
	// 8-byte query per arc of a round and a 4-byte cursor per vertex.
	offBytes := 4 * uint64(len(g.Offsets))
	round := uint64(csrfile.ScratchBytes(int64(g.NumEdges()))) / 8
	want := uint64(len(data)) + offBytes + min(uint64(csrfile.PieceBytes), offBytes) + 8*round + offBytes
	if alloc > want+want/20 {
		t.Errorf("allocated %d bytes to read %d; want about %d", alloc, len(data), want)
	}
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
