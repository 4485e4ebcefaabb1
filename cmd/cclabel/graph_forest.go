package main

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
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/labelfile"
)

// checkForestPath rejects spanning-forest outputs cclabel cannot write,
// before any work is done.
func checkForestPath(path string) error {
	if path == "" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt", ".npy":
	default:
		return usagef("--forest %s: unknown extension (want .txt or .npy)", path)
	}
	return labelfile.CheckOutputDir(path)
}

// writeForest writes the forest's edges in the file's vertex IDs: "u v"
// lines for .txt, an int64 array of shape (m, 2) for .npy.
func writeForest(path string, f *ecl.Forest, id func(int) int64) error {
	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		m := f.Len()
		if strings.ToLower(filepath.Ext(path)) == ".npy" {
			pairs := make([]int64, 2*m)
			for i := range m {
				pairs[2*i], pairs[2*i+1] = id(int(f.U[i])), id(int(f.V[i]))
			}
			return npy.WriteInt64(w, pairs, []int{m, 2})
		}
		buf := make([]byte, 0, 1<<16)
		for i := range m {
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
	})
	if err != nil {
		return fmt.Errorf("--forest %s: %w", path, err)
	}
	return nil
}

// verifyForestFile reads the forest written to path back, maps its IDs to
// vertices and checks it with ecl.VerifyForest, so the check covers the
// file as a user gets it, independently of how the forest was built.
func verifyForestFile(path string, g *ecl.Graph, ids *vertexIDs) error {
	f, err := readForestFile(path, ids)
	if err == nil {
		err = ecl.VerifyForest(g, f)
	}
	if err != nil {
		return fmt.Errorf("--forest %s: %w", path, err)
	}
	return nil
}

// readForestFile reads a forest written by writeForest.
func readForestFile(path string, ids *vertexIDs) (*ecl.Forest, error) {
	var pairs []int64
	if strings.ToLower(filepath.Ext(path)) == ".npy" {
		var err error
		if pairs, err = readNPYPairs(path); err != nil {
			return nil, err
		}
	} else {
		file, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer file.Close()
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
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	f := &ecl.Forest{U: make([]int32, len(pairs)/2), V: make([]int32, len(pairs)/2)}
	for i := range f.U {
		for j, dst := range []*int32{&f.U[i], &f.V[i]} {
			v, ok := ids.vertex(pairs[2*i+j])
			if !ok {
				return nil, fmt.Errorf("edge %d: vertex ID %d is not in the graph", i, pairs[2*i+j])
			}
			*dst = v
		}
	}
	return f, nil
}

// readNPYPairs reads an int64 array of shape (m, 2).
func readNPYPairs(path string) ([]int64, error) {
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
	return r.Data.([]int64), nil
}

// vertexIDs maps the file's vertex IDs back to the graph's vertices.
type vertexIDs struct {
	lg   *graphio.LoadedGraph
	byID map[int64]int32 // when the reader compacted IDs (edge lists)
}

// newVertexIDs returns the inverse of lg.ID.
func newVertexIDs(lg *graphio.LoadedGraph) *vertexIDs {
	m := &vertexIDs{lg: lg}
	if lg.IDs != nil {
		m.byID = make(map[int64]int32, len(lg.IDs))
		for v, id := range lg.IDs {
			m.byID[id] = int32(v)
		}
	}
	return m
}

// vertex returns the vertex with file ID id, and whether there is one.
func (m *vertexIDs) vertex(id int64) (int32, bool) {
	if m.byID != nil {
		v, ok := m.byID[id]
		return v, ok
	}
	v := id - m.lg.Base
	if v < 0 || v >= int64(m.lg.Graph.NumVertices()) {
		return 0, false
	}
	return int32(v), true
}
