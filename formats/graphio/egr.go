package graphio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/internal/csrfile"
)

// The .egr format (ECL-CC's binary CSR), little-endian: int32 nodes, int32
// edges, int32 offsets[nodes+1], int32 neighbours[edges], then optionally
// int32 weights[edges], which are ignored.
//
// The .egr64 format, cclabel's variant for graphs of 2^31 arcs or more,
// widens the header and the offsets: int64 nodes, int64 edges, int64
// offsets[nodes+1], then int32 neighbours[edges] and optional int32
// weights[edges] as in .egr. Vertex IDs stay 32-bit (nodes < 2^31-1).

// egrLayout is the width of an .egr flavour's header fields and offsets:
// 4 bytes (.egr) or 8 (.egr64).
type egrLayout int

// The two .egr flavours.
const (
	egr32 egrLayout = 4
	egr64 egrLayout = 8
)

// headBytes is the size of the header: nodes and edges.
func (w egrLayout) headBytes() int64 { return 2 * int64(w) }

// name is the flavour's file extension.
func (w egrLayout) name() string {
	if w == egr64 {
		return ".egr64"
	}
	return ".egr"
}

// egrBufBytes is the size of the buffer the .egr reader and writer decode
// and encode through.
const egrBufBytes = 1 << 20

// egrFirstChunk is the number of int32s allocated first for an array whose
// length only a header vouches for (input size unknown).
const egrFirstChunk = 1 << 16

// ReadEGR reads an .egr graph from r. size is the byte length of the input
// when known, or -1: with a size the header must match it exactly (with or
// without weights) before anything is allocated; without one the arrays
// grow as data arrives, so a lying header on a short input fails cheaply.
// The graph is validated, its adjacency lists sorted when they are not, and
// it is symmetrized, with a warning, when it is not symmetric. Base is 0.
func ReadEGR(r io.Reader, size int64, opts ReadOptions) (*LoadedGraph, error) {
	return readGraph(r, FormatEGR, newConfig(opts, size))
}

// ReadEGR64 is [ReadEGR] for the .egr64 variant (64-bit header and offsets).
func ReadEGR64(r io.Reader, size int64, opts ReadOptions) (*LoadedGraph, error) {
	return readGraph(r, FormatEGR64, newConfig(opts, size))
}

// egrDecoder reads little-endian int32 arrays through a fixed buffer.
type egrDecoder struct {
	r     io.Reader
	buf   []byte
	read  int64 // bytes consumed so far
	known bool  // whether the input size is known (and was checked)
}

// errShort reports that the input ended before an array was complete.
var errShort = errors.New("short input")

// int32s reads count int32s.
func (d *egrDecoder) int32s(count int64) ([]int32, error) {
	return egrInts(d, count, 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) })
}

// offsets reads count offsets of the layout's width.
func (d *egrDecoder) offsets(count int64, w egrLayout) ([]int64, error) {
	if w == egr64 {
		return egrInts(d, count, 8, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
	}
	return egrInts(d, count, 4, func(b []byte) int64 { return int64(int32(binary.LittleEndian.Uint32(b))) })
}

// egrInts reads count little-endian integers of width bytes each. With a
// known size it allocates them at once; otherwise it grows the slice only
// as data arrives.
func egrInts[T int32 | int64](d *egrDecoder, count int64, width int, decode func([]byte) T) ([]T, error) {
	var dst []T
	if d.known {
		dst = make([]T, count)
	} else {
		dst = make([]T, 0, min(count, egrFirstChunk))
	}
	for done := int64(0); done < count; {
		k := min(count-done, int64(len(d.buf)/width))
		n, err := io.ReadFull(d.r, d.buf[:int64(width)*k])
		d.read += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, errShort
		} else if err != nil {
			return nil, fmt.Errorf("formats: read: %w", err)
		}
		if !d.known {
			if need := int(done + k); need > cap(dst) {
				t := make([]T, len(dst), min(max(2*cap(dst), need), int(count)))
				copy(t, dst)
				dst = t
			}
			dst = dst[:done+k]
		}
		out := dst[done : done+k]
		for i := range out {
			out[i] = decode(d.buf[width*i:])
		}
		done += k
	}
	return dst, nil
}

// skip consumes up to limit bytes and returns how many there were.
func (d *egrDecoder) skip(limit int64) (int64, error) {
	var total int64
	for total < limit {
		n, err := d.r.Read(d.buf[:min(limit-total, int64(len(d.buf)))])
		total += int64(n)
		if err == io.EOF {
			break
		} else if err != nil {
			return total, fmt.Errorf("formats: read: %w", err)
		}
	}
	d.read += total
	return total, nil
}

// readEGR implements ReadEGR and ReadEGR64.
func readEGR(r io.Reader, cfg readConfig, w egrLayout) (*LoadedGraph, error) {
	hb := w.headBytes()
	head := make([]byte, hb)
	n, err := io.ReadFull(r, head)
	switch {
	case n == 0 && err == io.EOF:
		return nil, fmt.Errorf("formats: empty input (an %s file starts with a %d-byte header)", w.name(), hb)
	case err == io.ErrUnexpectedEOF:
		return nil, fmt.Errorf("formats: truncated: %d bytes, too short for the %d-byte %s header", n, hb, w.name())
	case err != nil:
		return nil, fmt.Errorf("formats: read: %w", err)
	}
	var nodes, edges int64
	if w == egr64 {
		nodes, edges = int64(binary.LittleEndian.Uint64(head[0:])), int64(binary.LittleEndian.Uint64(head[8:]))
	} else {
		nodes, edges = int64(int32(binary.LittleEndian.Uint32(head[0:]))), int64(int32(binary.LittleEndian.Uint32(head[4:])))
	}
	if nodes < 0 || edges < 0 {
		return nil, fmt.Errorf("formats: bad %s header: %d nodes and %d edges", w.name(), nodes, edges)
	}
	if nodes >= math.MaxInt32 {
		return nil, fmt.Errorf("formats: bad %s header: %d nodes, more than the limit of %d", w.name(), nodes, math.MaxInt32-1)
	}
	if edges > (math.MaxInt64-hb-int64(w)*(nodes+1))/8 {
		return nil, fmt.Errorf("formats: bad %s header: %d edges", w.name(), edges)
	}
	need := hb + int64(w)*(nodes+1) + 4*edges
	truncated := func(have int64) error {
		return fmt.Errorf("formats: truncated: header says %d nodes and %d edges (need %d bytes), file has %d",
			nodes, edges, need, have)
	}
	trailing := func(extra int64) error {
		if edges == 0 {
			return fmt.Errorf("formats: unexpected %d trailing bytes after the %d bytes the header implies", extra, need)
		}
		return fmt.Errorf("formats: unexpected %d trailing bytes after the %d bytes the header implies (a weight array would be %d bytes)",
			extra, need, 4*edges)
	}
	weights := false
	if cfg.size >= 0 {
		switch extra := cfg.size - need; {
		case extra < 0:
			return nil, truncated(cfg.size)
		case extra == 4*edges:
			weights = edges > 0
		case extra != 0:
			return nil, trailing(extra)
		}
	}
	if cfg.size >= 0 && edges <= math.MaxInt/8 {
		if lg, ok, err := mapEGR(r, cfg, hb, nodes, edges, w); ok || err != nil {
			return lg, err
		}
		if cr, ra, sk, base, ok := egrRandomAccess(r); ok {
			g, read, err := csrfile.Read(ra, base, hb, nodes, edges, int(w), weights, cfg.size, cfg.Threads)
			if err == csrfile.ErrShort {
				return nil, truncated(read)
			} else if err != nil {
				return nil, err
			}
			// Leave r after the input, as the streaming reader does.
			if _, err := sk.Seek(base+read-hb, io.SeekStart); err != nil {
				return nil, fmt.Errorf("formats: read: %w", err)
			}
			cr.n += read - hb
			return finishEGR(g, cfg)
		}
	}
	bufBytes := egrBufBytes
	if cfg.size >= 0 && cfg.size < egrBufBytes {
		bufBytes = int(cfg.size+4) &^ 3 // small inputs need no big buffer
	}
	d := &egrDecoder{r: r, buf: make([]byte, bufBytes), read: hb, known: cfg.size >= 0}
	g, err := d.graph(nodes, edges, w, weights, trailing)
	if err == errShort {
		return nil, truncated(d.read)
	} else if err != nil {
		return nil, err
	}
	return finishEGR(g, cfg)
}

// graph reads the offsets and neighbours and checks what follows them.
func (d *egrDecoder) graph(nodes, edges int64, w egrLayout, weights bool, trailing func(int64) error) (*ecl.Graph, error) {
	offsets, err := d.offsets(nodes+1, w)
	if err != nil {
		return nil, err
	}
	nbrs, err := d.int32s(edges)
	if err != nil {
		return nil, err
	}
	if err := d.finish(weights, edges, trailing); err != nil {
		return nil, err
	}
	return &ecl.Graph{Offsets: offsets, Neighbors: nbrs}, nil
}

// finish consumes what follows the neighbour array: the weights when the
// size said there are some, otherwise optional weights (size unknown) or
// nothing; anything else is an error.
func (d *egrDecoder) finish(weights bool, edges int64, trailing func(int64) error) error {
	start := d.read
	if d.known {
		want := int64(0)
		if weights {
			want = 4 * edges
		}
		got, err := d.skip(want + 1)
		switch {
		case err != nil:
			return err
		case got < want:
			return errShort
		case got > want:
			return fmt.Errorf("formats: input is longer than its given size of %d bytes", start+want)
		}
		return nil
	}
	got, err := d.skip(4*edges + 1)
	if err != nil {
		return err
	}
	if got != 0 && got != 4*edges {
		if got > 4*edges {
			// Count the rest for the message, within reason.
			const limit = 1 << 26
			more, err := d.skip(limit)
			if err != nil {
				return err
			}
			if more == limit {
				return fmt.Errorf("formats: unexpected trailing bytes (more than %d) after the %d bytes the header implies",
					got+more, start)
			}
			got += more
		}
		return trailing(got)
	}
	return nil
}

// mapEGR maps the .egr file r reads, when cfg asks for it and r is a large
// file at the start of its header; ok says whether it did. hb is the
// header's size, already read.
func mapEGR(r io.Reader, cfg readConfig, hb, nodes, edges int64, w egrLayout) (lg *LoadedGraph, ok bool, err error) {
	cr, isCounting := r.(*countingReader)
	if !cfg.Map || cfg.size < csrfile.MapMinBytes || !isCounting {
		return nil, false, nil
	}
	f, isFile := cr.r.(*os.File)
	if !isFile {
		return nil, false, nil
	}
	if pos, err := f.Seek(0, io.SeekCurrent); err != nil || pos != hb {
		return nil, false, nil
	}
	g, release, err := csrfile.Map(f, hb, nodes, edges, int(w), cfg.size, cfg.Threads)
	if err != nil {
		return nil, false, nil
	}
	if _, err := f.Seek(cfg.size, io.SeekStart); err != nil {
		release()
		return nil, false, fmt.Errorf("formats: read: %w", err)
	}
	cr.n += cfg.size - hb
	lg, err = finishEGR(g, cfg)
	if err != nil {
		release()
		return nil, false, err
	}
	if lg.Graph != g {
		// Symmetrized: the mapped arrays are no longer used.
		release()
	} else {
		lg.release = release
	}
	return lg, true, nil
}

// finishEGR validates a decoded graph, sorts unsorted adjacency lists and
// symmetrizes the graph when needed. The checks run on cfg.Threads
// goroutines; an invalid graph gets [ecl.Graph.Validate]'s error.
func finishEGR(g *ecl.Graph, cfg readConfig) (*LoadedGraph, error) {
	f, err := csrfile.Validate(g, cfg.Threads)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	lg := &LoadedGraph{Graph: g}
	if !f.Sorted {
		g.SortAdjacency(cfg.Threads)
		f = csrfile.Scan(g, cfg.Threads)
	}
	if !csrfile.Symmetric(g, cfg.Threads, f) {
		sym, err := g.Symmetrize()
		if err != nil {
			return nil, fmt.Errorf("formats: symmetrize: %w", err)
		}
		lg.Graph = sym
		lg.Warnings = append(lg.Warnings, ".egr graph was not symmetric: symmetrized")
	}
	return lg, nil
}

// WriteEGR writes g to w in the .egr format, without weights. The graph must
// be valid (see [ecl.Graph.Validate]) and hold fewer than 2^31 arcs (write
// larger graphs with [WriteEGR64]).
func WriteEGR(w io.Writer, g *ecl.Graph) error {
	return writeEGR(w, g, egr32)
}

// WriteEGR64 writes g to w in the .egr64 format, without weights. The format
// has a 64-bit header and offsets. The graph must be valid.
func WriteEGR64(w io.Writer, g *ecl.Graph) error {
	return writeEGR(w, g, egr64)
}

// writeEGR implements WriteEGR and WriteEGR64.
func writeEGR(w io.Writer, g *ecl.Graph, layout egrLayout) error {
	if err := checkWritable(g); err != nil {
		return err
	}
	if layout == egr32 && len(g.Neighbors) > math.MaxInt32 {
		return fmt.Errorf("formats: cannot write %d arcs as .egr (int32 offsets): write .egr64", len(g.Neighbors))
	}
	if err := csrfile.Write(w, g, int(layout), egrBufBytes); err != nil {
		return fmt.Errorf("formats: write %s: %w", layout.name(), err)
	}
	return nil
}

// checkWritable reports why g cannot be written, if it cannot.
func checkWritable(g *ecl.Graph) error {
	if g == nil {
		return errors.New("formats: cannot write a nil graph")
	}
	if err := g.Validate(); err != nil {
		return fmt.Errorf("formats: cannot write: %w", err)
	}
	return nil
}

// egrRandomAccess returns the random-access view of r, and the offset in
// it where the data after the header starts, when the .egr body can be read
// in parallel: r is the reader readGraph counts through, over an
// [io.ReaderAt] and [io.Seeker] whose position can be told.
func egrRandomAccess(r io.Reader) (*countingReader, io.ReaderAt, io.Seeker, int64, bool) {
	cr, ok := r.(*countingReader)
	if !ok {
		return nil, nil, nil, 0, false
	}
	ra, ok := cr.r.(io.ReaderAt)
	if !ok {
		return nil, nil, nil, 0, false
	}
	sk, ok := cr.r.(io.Seeker)
	if !ok {
		return nil, nil, nil, 0, false
	}
	pos, err := sk.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, nil, nil, 0, false
	}
	return cr, ra, sk, pos, true
}
