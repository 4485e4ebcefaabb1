package formats

// Spanning forest files ([ecl.Forest]) are text, one "u v" line per edge, or
// NumPy .npy, an int64 array of shape (m, 2). Both hold the graph file's
// vertex IDs, not the 0-based vertices of the CSR graph: the caller passes
// the mapping (graphio.LoadedGraph.ID one way, its inverse the other).

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// isNPYPath reports whether path names a .npy file (else it is text).
func isNPYPath(path string) bool { return strings.EqualFold(filepath.Ext(path), ".npy") }

// WriteForestFile writes the forest f to path, as .npy or text by the
// extension. It replaces path only once the whole file is written. id maps a
// vertex to its file ID.
func WriteForestFile(path string, f *ecl.Forest, id func(int) int64) error {
	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		if isNPYPath(path) {
			return WriteForestNPY(w, f, id)
		}
		return WriteForestText(w, f, id)
	})
	if err != nil {
		return fmt.Errorf("formats: forest: %w", err)
	}
	return nil
}

// WriteForestText writes one "u v" line per edge, in file IDs.
func WriteForestText(w io.Writer, f *ecl.Forest, id func(int) int64) error {
	buf := make([]byte, 0, 1<<16)
	for i := range f.Len() {
		buf = strconv.AppendInt(buf, id(int(f.U[i])), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, id(int(f.V[i])), 10)
		buf = append(buf, '\n')
		if len(buf) > cap(buf)-64 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// WriteForestNPY writes the edges of f as an int64 .npy array. The array has shape
// (m, 2), and the edges are in file IDs.
func WriteForestNPY(w io.Writer, f *ecl.Forest, id func(int) int64) error {
	m := f.Len()
	pairs := make([]int64, 2*m)
	for i := range m {
		pairs[2*i], pairs[2*i+1] = id(int(f.U[i])), id(int(f.V[i]))
	}
	return npy.WriteInt64(w, pairs, []int{m, 2})
}

// ReadForestFile reads a forest written by [WriteForestFile]. It reads .npy or text as
// its first bytes say (whatever its name), mapping each file ID to a vertex
// with vertex, which reports false for IDs that are not vertices.
func ReadForestFile(path string, vertex func(int64) (int32, bool)) (*ecl.Forest, error) {
	var pairs []int64
	npyFile, err := hasNPYMagic(path)
	if err != nil {
		return nil, fmt.Errorf("formats: %s: forest: %w", path, err)
	}
	if npyFile {
		pairs, err = readForestNPYPairs(path)
	} else {
		pairs, err = readForestTextPairs(path)
	}
	if err != nil {
		return nil, fmt.Errorf("formats: %s: forest: %w", path, err)
	}
	f := &ecl.Forest{U: make([]int32, len(pairs)/2), V: make([]int32, len(pairs)/2)}
	for i := range f.U {
		for j, dst := range []*int32{&f.U[i], &f.V[i]} {
			v, ok := vertex(pairs[2*i+j])
			if !ok {
				return nil, fmt.Errorf("formats: %s: forest: edge %d: vertex ID %d is not in the graph", path, i, pairs[2*i+j])
			}
			*dst = v
		}
	}
	return f, nil
}

// readForestTextPairs reads "u v" lines.
func readForestTextPairs(path string) ([]int64, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	var pairs []int64
	sc := bufio.NewScanner(bufio.NewReaderSize(file, 1<<20))
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d: want two vertex IDs, got %q", line, sc.Text())
		}
		for _, s := range fields {
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			pairs = append(pairs, x)
		}
	}
	return pairs, sc.Err()
}

// readForestNPYPairs reads an int64 array of shape (m, 2).
func readForestNPYPairs(path string) ([]int64, error) {
	// The raster reader wants at least one sample: a forest of no edges,
	// the header alone, is recognized first.
	var empty bytes.Buffer
	if err := npy.WriteInt64(&empty, nil, []int{0, 2}); err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err == nil && st.Size() == int64(empty.Len()) {
		if data, err := os.ReadFile(path); err == nil && bytes.Equal(data, empty.Bytes()) {
			return nil, nil
		}
	}
	r, err := npy.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if r.Kind != imagegraph.Int64 || r.Width != 2 || r.Depth != 1 {
		return nil, fmt.Errorf("want an int64 array of shape (m, 2), got %v samples %dx%dx%d", r.Kind, r.Width, r.Height, r.Depth)
	}
	return r.Data.(imagegraph.Samples[int64]), nil
}

// hasNPYMagic reports whether the file starts as an .npy file does.
func hasNPYMagic(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	magic := make([]byte, 6)
	n, _ := io.ReadFull(f, magic)
	return string(magic[:n]) == "\x93NUMPY", nil
}
