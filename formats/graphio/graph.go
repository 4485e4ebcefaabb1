package graphio

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/internal/errtext"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// ReadOptions configures the graph readers.
type ReadOptions struct {
	// DropZeros makes the Matrix Market reader skip entries whose value is
	// exactly 0 (SuiteSparse's convention); by default every stored entry
	// is an edge (LAGraph's convention).
	DropZeros bool
	// Threads is the number of goroutines for sorting adjacency lists and
	// checking symmetry; 0 means GOMAXPROCS.
	Threads int
	// MaxVertices bounds the vertex count a text header (a Matrix Market
	// size line, a DIMACS p line) or an edge list may declare, since the
	// graph needs about 12 bytes per vertex however few edges the file
	// holds; 0 means DefaultMaxVertices. The .egr reader checks its header
	// against the file size instead.
	MaxVertices int64
}

// DefaultMaxVertices is the vertex limit of text graph formats when
// ReadOptions.MaxVertices is 0: 2^28 vertices, about 3 GiB of CSR.
const DefaultMaxVertices = 1 << 28

// LoadedGraph is a graph read from a file.
type LoadedGraph struct {
	// Graph is the valid, symmetric graph.
	Graph *ecl.Graph
	// IDs holds the file's ID of each vertex when the reader compacted
	// IDs (edge lists), and is nil otherwise.
	IDs []int64
	// Base is, when IDs is nil, the file ID of vertex 0: vertex v has file
	// ID v+Base (0 for .egr, 1 for Matrix Market and DIMACS).
	Base int64
	// Warnings lists non-fatal findings, such as an asymmetric .egr graph
	// that was symmetrized.
	Warnings []string
}

// ID returns the file's ID of vertex v, which must be a vertex of l.Graph.
func (l *LoadedGraph) ID(v int) int64 {
	if l.IDs != nil {
		return l.IDs[v]
	}
	return int64(v) + l.Base
}

// readConfig carries a reader's settings, including some that are not part
// of the public options.
type readConfig struct {
	ReadOptions
	// size is the byte length of the input, or -1 when unknown.
	size int64
	// csvHeader lets an edge list's first non-comment line be a header.
	csvHeader bool
	// maxVertices bounds the vertex count a header may declare (tests
	// lower it to keep fuzzing fast).
	maxVertices int64
}

// newConfig returns the configuration of a public read call.
func newConfig(opts ReadOptions, size int64) readConfig {
	if size < 0 {
		size = -1
	}
	limit := opts.MaxVertices
	if limit <= 0 {
		limit = DefaultMaxVertices
	}
	// ecl.FromEdges needs n < MaxInt32.
	return readConfig{ReadOptions: opts, size: size, maxVertices: min(limit, math.MaxInt32-1)}
}

// ReadFile opens path, picks the format from its extension (see
// FormatFromPath) and reads it. Edge lists with the .csv extension may
// start with a header line, which is skipped with a warning. Errors are one
// line and name the file: "formats: PATH: line 12: ..." for text formats,
// "formats: PATH: ..." for .egr.
func ReadFile(path string, opts ReadOptions) (*LoadedGraph, error) {
	f, err := FormatFromPath(path)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	defer file.Close()
	size := int64(-1)
	if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	cfg := newConfig(opts, size)
	cfg.csvHeader = isCSV(path)
	lg, err := readGraph(file, f, cfg)
	if err != nil {
		return nil, &errtext.FileError{Path: path, Err: err}
	}
	return lg, nil
}

// Read reads a graph of format f from r. size is the byte length of
// the input when known (for example from Stat), or -1; it lets the readers
// check a header against the input before allocating. Edge lists are read
// as by ReadEdgeList, without header detection.
func Read(r io.Reader, size int64, f Format, opts ReadOptions) (*LoadedGraph, error) {
	return readGraph(r, f, newConfig(opts, size))
}

// readGraph dispatches on the format.
func readGraph(r io.Reader, f Format, cfg readConfig) (*LoadedGraph, error) {
	switch f {
	case FormatEGR:
		return readEGR(r, cfg)
	case FormatMatrixMarket:
		return readMatrixMarket(r, cfg)
	case FormatEdgeList:
		return readEdgeList(r, cfg)
	case FormatDIMACS:
		return readDIMACS(r, cfg)
	}
	return nil, fmt.Errorf("formats: unknown graph format %v", f)
}

// WriteFile writes g to path as .egr, atomically: a reader of path
// sees either the old file or the complete new one. Any extension other
// than .egr is an error.
func WriteFile(path string, g *ecl.Graph) error {
	f, err := FormatFromPath(path)
	if err != nil {
		return err
	}
	if f != FormatEGR {
		return fmt.Errorf("formats: %s: cannot write %s files (only .egr)", errtext.PathText(path), strings.ToLower(filepath.Ext(path)))
	}
	if err := checkWritable(g); err != nil {
		return &errtext.FileError{Path: path, Err: err}
	}
	err = atomicfile.WriteFile(path, func(w io.Writer) error { return WriteEGR(w, g) })
	if err != nil {
		if strings.HasPrefix(err.Error(), "formats: ") {
			return &errtext.FileError{Path: path, Err: err}
		}
		return fmt.Errorf("formats: %w", err)
	}
	return nil
}
