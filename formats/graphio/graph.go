package graphio

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/parallel"
)

// ReadOptions configures the graph readers.
type ReadOptions struct {
	// DropZeros makes the Matrix Market reader skip entries whose value is
	// exactly 0 (SuiteSparse's convention); by default every stored entry
	// is an edge (LAGraph's convention).
	DropZeros bool
	// Threads is the number of goroutines that parse text formats (in
	// chunks of whole lines; the result is the same for any count), sort
	// adjacency lists and check symmetry; 0 means GOMAXPROCS.
	Threads int
	// MaxVertices bounds the vertex count a text header (a Matrix Market size
	// line, a DIMACS p line) or an edge list may declare, since the graph's
	// offsets take 8 bytes per vertex however few edges the file holds (a
	// header declaring far more vertices than its entries can touch also
	// draws a warning); 0 means [DefaultMaxVertices]. The .egr reader checks
	// its header against the file size instead.
	MaxVertices int64
	// Map lets the file readers map a large uncompressed .egr or .egr64
	// file instead of reading it: the graph's arrays then share the file's
	// pages in the page cache, copy-on-write, until [LoadedGraph.Close].
	// The file must not be truncated or rewritten in place while the graph
	// is in use (replacing it by a rename is safe).
	Map bool
}

// DefaultMaxVertices is the default vertex limit of text graph formats. It
// applies when [ReadOptions.MaxVertices] is 0: 2^28 vertices, 2 GiB of CSR
// offsets.
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
	// Stats says how long reading took.
	Stats ReadStats

	release func() error // unmaps a mapped file; nil when none is mapped
}

// Close releases the file mapping behind the graph's arrays, if the reader
// mapped the file ([ReadOptions.Map]); the graph must not be used after.
// Otherwise it does nothing. Calling it again does nothing.
func (lg *LoadedGraph) Close() error {
	release := lg.release
	lg.release = nil
	if release == nil {
		return nil
	}
	return release()
}

// ReadStats describes one read of a graph.
type ReadStats struct {
	// Compression is the method the input was decompressed with ("gzip",
	// "zstd", "xz" or "bzip2"), or "" for an uncompressed input.
	Compression string
	// Bytes is the number of bytes parsed: the decompressed size of a
	// compressed input.
	Bytes int64
	// Parse is the time spent reading, decompressing and parsing the
	// input into edges.
	Parse time.Duration
	// Build is the time spent building the CSR graph from the edges (and,
	// for edge lists, numbering the IDs).
	Build time.Duration
}

// MBPerSecond returns the parse throughput in megabytes per second. That is
// Bytes (in units of 10^6) per second of Parse plus Build, or 0 when no time
// was measured.
func (s ReadStats) MBPerSecond() float64 {
	if t := (s.Parse + s.Build).Seconds(); t > 0 {
		return float64(s.Bytes) / 1e6 / t
	}
	return 0
}

// ID returns the file's ID of vertex v. v must be a vertex of l.Graph.
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
	// chunkBytes is the size of the chunks text bodies are parsed in
	// (tests lower it to cut small inputs into many chunks).
	chunkBytes int
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
	return readConfig{ReadOptions: opts, size: size, maxVertices: min(limit, math.MaxInt32-1),
		chunkBytes: fileio.DefaultChunkBytes}
}

// parseThreads returns the number of goroutines that parse text chunks:
// one for an input known to fit in one chunk, else Threads or GOMAXPROCS.
func (c readConfig) parseThreads() int {
	if c.size >= 0 && c.size <= int64(c.chunkBytes) {
		return 1
	}
	return parallel.ClampThreads(c.Threads, parallel.MaxThreads)
}

// ReadFile reads the graph file at path, in the format its extension names.
// It picks the format as [FormatFromPath] does, decompressing the file first
// when a last extension .gz, .xz, .zst or .bz2 says so (see [Read] for text
// formats compressed without saying so). Edge lists with the .csv extension
// may start with a header line, which is skipped with a warning. Errors are
// one line and name the file: "formats: PATH: line 12: ..." for text formats,
// "formats: PATH: ..." for .egr.
func ReadFile(path string, opts ReadOptions) (*LoadedGraph, error) {
	f, err := FormatFromPath(path)
	if err != nil {
		return nil, err
	}
	return readFile(path, f, opts)
}

// readFile reads the file path in format f, decompressing it as its
// extension says.
func readFile(path string, f Format, opts ReadOptions) (*LoadedGraph, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	defer file.Close()
	size := int64(-1)
	if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	m, inner := fileio.CompressionFromName(path)
	cfg := newConfig(opts, size)
	cfg.csvHeader = isCSV(inner)
	lg, err := readStream(file, m, f, cfg)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	return lg, nil
}

// Read reads a graph of format f from r. size is the byte length of the input
// when known (for example from Stat), or -1; it lets the readers check a
// header against the input before allocating. Text formats compressed with
// gzip, zstd, xz or bzip2 are recognized by their first bytes and
// decompressed, since no text graph starts with those bytes; .egr data is
// taken as it is. Edge lists are read as by [ReadEdgeList], without header
// detection.
func Read(r io.Reader, size int64, f Format, opts ReadOptions) (*LoadedGraph, error) {
	lg, err := readStream(r, fileio.Uncompressed, f, newConfig(opts, size))
	if err != nil {
		return nil, fileio.Wrap("", "", err)
	}
	return lg, nil
}

// readStream reads a graph of format f from r, compressed with m; m None
// with a text format looks at the first bytes for a compressed stream.
func readStream(r io.Reader, m fileio.Compression, f Format, cfg readConfig) (*LoadedGraph, error) {
	if m == fileio.Uncompressed && !f.binary() {
		r, m = sniff(r)
	}
	if m == fileio.Uncompressed {
		return readGraph(r, f, cfg)
	}
	dec, err := fileio.NewDecompressor(r, m)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	defer dec.Close()
	src := io.Reader(dec)
	if f.binary() {
		// The .egr reader decodes on this goroutine; decompress on another.
		ahead := fileio.NewReadahead(dec, egrBufBytes, 3)
		defer ahead.Close()
		src = ahead
	}
	cfg.size = -1
	lg, err := readGraph(src, f, cfg)
	if err != nil {
		return nil, err
	}
	lg.Stats.Compression = m.String()
	return lg, nil
}

// sniff reads the first bytes of r and returns a reader of all of r and
// the compression method those bytes show, or fileio.Uncompressed.
func sniff(r io.Reader) (io.Reader, fileio.Compression) {
	var head [fileio.SniffBytes]byte
	n, err := io.ReadFull(r, head[:])
	rest := r
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		rest = errReader{err}
	}
	return io.MultiReader(bytes.NewReader(head[:n]), rest), fileio.SniffCompression(head[:n])
}

// errReader is a reader that fails with err.
type errReader struct{ err error }

// Read returns the reader's error.
func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// readGraph dispatches on the format, counting the bytes read and timing
// the read.
func readGraph(r io.Reader, f Format, cfg readConfig) (*LoadedGraph, error) {
	start := time.Now()
	cr := &countingReader{r: r}
	var lg *LoadedGraph
	var err error
	switch f {
	case FormatEGR:
		lg, err = readEGR(cr, cfg, egr32)
	case FormatEGR64:
		lg, err = readEGR(cr, cfg, egr64)
	case FormatMatrixMarket:
		lg, err = readMatrixMarket(cr, cfg)
	case FormatEdgeList:
		lg, err = readEdgeList(cr, cfg)
	case FormatDIMACS:
		lg, err = readDIMACS(cr, cfg)
	default:
		return nil, fmt.Errorf("formats: unknown graph format %v", f)
	}
	if err != nil {
		return nil, err
	}
	lg.Stats.Bytes = cr.n
	lg.Stats.Parse = time.Since(start) - lg.Stats.Build
	return lg, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

// Read reads from the underlying reader.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// WriteFile writes g to path atomically as .egr or .egr64, by extension. A
// reader of path sees either the old file or the complete new one. Any other
// extension is an error, and so is a compressed one (.egr.gz); a graph of
// 2^31 arcs or more needs .egr64.
func WriteFile(path string, g *ecl.Graph) error {
	f, err := FormatFromPath(path)
	if err != nil {
		return err
	}
	if m, _ := fileio.CompressionFromName(path); m != fileio.Uncompressed {
		return &fileio.UnsupportedError{Path: path, Err: fmt.Errorf("cannot write compressed graph files (%s): write .egr", m)}
	}
	if !f.binary() {
		return &fileio.UnsupportedError{Path: path, Err: fmt.Errorf("cannot write %s files (only .egr and .egr64)", strings.ToLower(filepath.Ext(path)))}
	}
	if err := checkWritable(g); err != nil {
		return fileio.WrapWrite(path, "", err)
	}
	layout := egr32
	if f == FormatEGR64 {
		layout = egr64
	}
	err = atomicfile.WriteFile(path, func(w io.Writer) error { return writeEGR(w, g, layout) })
	if err != nil {
		if strings.HasPrefix(err.Error(), "formats: ") {
			return fileio.WrapWrite(path, "", err)
		}
		return &fileio.FileError{Err: err}
	}
	return nil
}
