package graphio

import (
	"errors"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/cclabel/cclabel/ecl"
)

// ReadEdgeList reads a text edge list from r. Lines starting with # or % are
// comments and blank lines are skipped; fields are separated by whitespace or
// commas, the first two of each line are integer vertex IDs (any int64) and
// further fields are ignored. Every line is an undirected edge. The vertices
// are exactly the IDs that appear, numbered in ascending ID order;
// LoadedGraph.IDs maps them back. [ReadFile] also skips a header line in .csv
// files; ReadEdgeList does not. The lines are parsed in chunks on
// opts.Threads goroutines.
func ReadEdgeList(r io.Reader, opts ReadOptions) (*LoadedGraph, error) {
	return readGraph(r, FormatEdgeList, newConfig(opts, -1))
}

// edgeListChunk is a parsed chunk of an edge list: its edges, and its
// first bad line, which ends it.
type edgeListChunk struct {
	ecl.IDEdges
	err error
}

// firstEdge is the run of the single edge (u, v).
func firstEdge(u, v int64) ecl.IDEdges {
	e := ecl.IDEdges{Lo: min(u, v), Hi: max(u, v)}
	if uint64(u)|uint64(v) <= math.MaxUint32 {
		e.Narrow = []uint32{uint32(u), uint32(v)}
	} else {
		e.Wide = []int64{u, v}
	}
	return e
}

// readEdgeList implements ReadEdgeList, with header detection when
// cfg.csvHeader is set: a first non-comment line whose first two fields are
// both non-numeric is skipped with a warning.
func readEdgeList(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
	lr := newLineReader(r)
	var warnings []string
	var chunks []ecl.IDEdges
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
	lines, err := fileio.ForLineChunks(lr.br, lr.line, cfg.parseThreads(), cfg.chunkBytes, parseEdgeListChunk,
		func(c *fileio.LineChunk, res edgeListChunk) error {
			if res.err != nil {
				return res.err
			}
			if res.Len() > 0 {
				chunks = append(chunks, res.IDEdges)
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
	ids, us, vs, err := ecl.CompactIDs(chunks, cfg.maxVertices, cfg.Threads)
	if le := (*ecl.IDLimitError)(nil); errors.As(err, &le) {
		return nil, tooManyIDs(le.Count, le.Limit)
	}
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
func parseEdgeListChunk(c *fileio.LineChunk) edgeListChunk {
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
		return edgeListChunk{IDEdges: ecl.IDEdges{Wide: wide, Lo: lo, Hi: hi}}
	}
	return edgeListChunk{IDEdges: ecl.IDEdges{Narrow: narrow[:k], Lo: lo, Hi: hi}}
}

// isNumber reports whether b parses as a number (integer or not), which
// rules it out as a CSV header field.
func isNumber(b []byte) bool {
	_, err := strconv.ParseFloat(string(b), 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// tooManyIDs reports an edge list with more distinct IDs than allowed.
func tooManyIDs(count int, limit int64) error {
	return fmt.Errorf("formats: %d distinct vertex IDs exceed the limit of %d vertices", count, limit)
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
