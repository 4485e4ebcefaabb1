package graphio

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/cclabel/cclabel/ecl"
)

// ReadEdgeList reads a text edge list from r. Lines starting with # or %
// are comments and blank lines are skipped; fields are separated by
// whitespace or commas, the first two of each line are integer vertex IDs
// (any int64) and further fields are ignored. Every line is an undirected
// edge. The vertices are exactly the IDs that appear, numbered in
// ascending ID order; LoadedGraph.IDs maps them back. ReadFile also
// skips a header line in .csv files; ReadEdgeList does not. The lines are
// parsed in chunks on opts.Threads goroutines.
func ReadEdgeList(r io.Reader, opts ReadOptions) (*LoadedGraph, error) {
	return readGraph(r, FormatEdgeList, newConfig(opts, -1))
}

// edgeListChunk is a parsed chunk of an edge list. Its IDs u0, v0, u1,
// v1, ... are kept in narrow when they all lie in [0, 2^32), as most files'
// do, at half the memory, else in wide.
type edgeListChunk struct {
	wide   []int64
	narrow []uint32
	lo, hi int64 // the smallest and largest ID
	err    error // the chunk's first bad line, which ends it
}

// firstEdge is the chunk of the single edge (u, v).
func firstEdge(u, v int64) edgeListChunk {
	c := edgeListChunk{lo: min(u, v), hi: max(u, v)}
	if uint64(u)|uint64(v) <= math.MaxUint32 {
		c.narrow = []uint32{uint32(u), uint32(v)}
	} else {
		c.wide = []int64{u, v}
	}
	return c
}

// len returns the number of IDs in c: twice its edges.
func (c *edgeListChunk) len() int { return len(c.wide) + len(c.narrow) }

// readEdgeList implements ReadEdgeList, with header detection when
// cfg.csvHeader is set: a first non-comment line whose first two fields are
// both non-numeric is skipped with a warning.
func readEdgeList(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
	lr := newLineReader(r)
	var warnings []string
	var chunks []edgeListChunk
	// The first line that is not a comment is read alone, as it may be a
	// CSV header; the chunks take the rest.
	for {
		line, ok := lr.next()
		if !ok {
			if lr.err != nil {
				return nil, lr.err
			}
			break
		}
		if c := firstByte(line); c == 0 || c == '#' || c == '%' {
			continue
		}
		u, v, header, err := edgeListLine(line, lr.line, cfg.csvHeader)
		if err != nil {
			return nil, err
		}
		if header {
			warnings = append(warnings, fmt.Sprintf("line %d: skipped CSV header %s", lr.line, quote(line)))
		} else {
			chunks = append(chunks, firstEdge(u, v))
		}
		break
	}
	lines, err := forChunks(lr.br, lr.line, cfg.parseThreads(), cfg.chunkBytes, parseEdgeListChunk,
		func(c *textChunk, res edgeListChunk) error {
			if res.err != nil {
				return res.err
			}
			if res.len() > 0 {
				chunks = append(chunks, res)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	if len(chunks) == 0 {
		if lines == 0 {
			return nil, errors.New("formats: empty input: no edges")
		}
		return nil, fmt.Errorf("formats: line %d: no edges in the edge list", lines)
	}
	build := time.Now()
	ids, us, vs, err := compactIDs(chunks, cfg.maxVertices, cfg.Threads)
	if err != nil {
		return nil, err
	}
	chunks = nil
	g, err := buildGraph(len(ids), us, vs, cfg.Threads)
	if err != nil {
		return nil, err
	}
	return &LoadedGraph{Graph: g, IDs: ids, Warnings: warnings, Stats: ReadStats{Build: time.Since(build)}}, nil
}

// edgeListLine parses an edge list line that is not a comment: its
// first two fields as IDs. With header set, a line whose two fields are
// both not numbers is a header instead. num is the line's number, for
// errors.
func edgeListLine(line []byte, num int, header bool) (u, v int64, isHeader bool, err error) {
	var f [2][]byte
	if k := fields(line, f[:], true); k < 2 {
		return 0, 0, false, lineErrorf(num, "need two vertex IDs, found %s", quote(line))
	}
	u, ok1 := parseInt(f[0])
	v, ok2 := parseInt(f[1])
	if !ok1 || !ok2 {
		if header && !isNumber(f[0]) && !isNumber(f[1]) {
			return 0, 0, true, nil
		}
		bad := f[0]
		if ok1 {
			bad = f[1]
		}
		return 0, 0, false, lineErrorf(num, "vertex ID %s is not an integer", quote(bad))
	}
	return u, v, false, nil
}

// parseEdgeListChunk parses the lines of an edge list chunk: a fast path
// for plain "u v ..." lines, and edgeListLine for the rest and for errors.
func parseEdgeListChunk(c *textChunk) edgeListChunk {
	const sep = classSpace | classComma
	data := c.Data
	narrow := make([]uint32, 2*c.Lines) // until an ID does not fit
	var wide []int64
	k := 0 // IDs in narrow
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	num := c.Line
	for i := 0; i < len(data); {
		num++
		start := i
		i = skipClass(data, i, classSpace)
		if i == len(data) {
			break
		}
		switch data[i] {
		case '\n':
			i++
			continue
		case '#', '%', 0: // 0: firstByte's blank line, as the serial reader had it
			i = lineEnd(data, i) + 1
			continue
		}
		u, j, ok := scanInt(data, i, true, sep|classNewline)
		var v int64
		if ok {
			v, j, ok = scanInt(data, skipClass(data, j, sep), true, sep|classNewline)
		}
		if !ok {
			j = start
			var err error
			end := lineEnd(data, start)
			if u, v, _, err = edgeListLine(trimCR(data[start:end]), num, false); err != nil {
				return edgeListChunk{err: err}
			}
		}
		lo, hi = min(lo, u, v), max(hi, u, v)
		i = lineEnd(data, j) + 1
		if wide == nil {
			if uint64(u)|uint64(v) <= math.MaxUint32 {
				narrow[k], narrow[k+1] = uint32(u), uint32(v)
				k += 2
				continue
			}
			wide = make([]int64, k, len(narrow))
			for x, id := range narrow[:k] {
				wide[x] = int64(id)
			}
			narrow = nil
		}
		wide = append(wide, u, v)
	}
	if wide != nil {
		return edgeListChunk{wide: wide, lo: lo, hi: hi}
	}
	return edgeListChunk{narrow: narrow[:k], lo: lo, hi: hi}
}

// isNumber reports whether b parses as a number (integer or not), which
// rules it out as a CSV header field.
func isNumber(b []byte) bool {
	_, err := strconv.ParseFloat(string(b), 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// buildGraph builds the CSR graph of n vertices and the edges (us[i],
// vs[i]) on threads goroutines: the graph ecl.FromEdges builds.
func buildGraph(n int, us, vs []int32, threads int) (*ecl.Graph, error) {
	g, err := ecl.FromEdgesParallel(n, us, vs, threads)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	return g, nil
}
