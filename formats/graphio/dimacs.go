package graphio

import (
	"errors"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"time"
)

// ReadDIMACS reads a DIMACS or PACE graph (.gr) from r. Lines starting with
// c or # are comments; a "p KIND n m" line (PACE: "p tw n m", DIMACS
// shortest paths: "p sp n m") must precede the edges, which are "u v",
// "a u v [w]" or "e u v" lines with 1-based vertices in [1, n]; there must
// be exactly m of them. Each is an undirected edge. Base is 1. The edge
// lines are parsed in chunks on opts.Threads goroutines.
func ReadDIMACS(r io.Reader, opts ReadOptions) (*LoadedGraph, error) {
	return readGraph(r, FormatDIMACS, newConfig(opts, -1))
}

// dimacsComment reports whether a line starting with c (0 for a blank
// line) is a comment.
func dimacsComment(c byte) bool { return c == 0 || c == 'c' || c == '#' }

// readDIMACS implements ReadDIMACS.
func readDIMACS(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
	lr := newLineReader(r)
	var n, m int64
	seenP := false
	for !seenP {
		line, ok := lr.next()
		if !ok {
			break
		}
		switch c := firstByte(line); {
		case dimacsComment(c):
			continue
		case c == 'p':
			var err error
			if n, m, err = dimacsProblem(lr, line, cfg); err != nil {
				return nil, err
			}
			seenP = true
			continue
		}
		_, _, _, err := dimacsEdge(line, lr.line, -1)
		return nil, err
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if !seenP {
		if lr.line == 0 {
			return nil, errors.New("formats: empty input (a DIMACS graph needs a \"p KIND n m\" line)")
		}
		return nil, fmt.Errorf("formats: line %d: no \"p KIND n m\" line", lr.line)
	}
	edges := &pairCounter{limit: m, tooMany: "more edges than the %d the p line promised", comment: dimacsComment}
	lines, err := fileio.ForLineChunks(lr.br, lr.line, cfg.parseThreads(), cfg.chunkBytes,
		func(c *fileio.LineChunk) pairChunk { return parseDIMACSChunk(c, n) }, edges.commit)
	if err != nil {
		return nil, err
	}
	if edges.total != m {
		return nil, fmt.Errorf("formats: line %d: found %d edges, but the p line promised %d", lines, edges.total, m)
	}
	build := time.Now()
	us, vs := edges.edges(cfg.Threads)
	g, err := buildGraph(int(n), us, vs, cfg.Threads)
	if err != nil {
		return nil, err
	}
	var warnings []string
	if w := isolatedWarning("p line", "edge", n, m, us, vs); w != "" {
		warnings = append(warnings, w)
	}
	return &LoadedGraph{Graph: g, Base: 1, Warnings: warnings, Stats: ReadStats{Build: time.Since(build)}}, nil
}

// dimacsProblem parses a "p KIND n m" line.
func dimacsProblem(lr *lineReader, line []byte, cfg readConfig) (n, m int64, err error) {
	var f [4][]byte
	if k := fields(line, f[:], false); k < 4 || len(f[0]) != 1 {
		return 0, 0, lr.errorf("p line %s is not \"p KIND n m\"", quote(line))
	}
	n, ok1 := parseInt(f[2])
	m, ok2 := parseInt(f[3])
	if !ok1 || !ok2 || n < 0 || m < 0 {
		return 0, 0, lr.errorf("p line %s: n and m must be non-negative integers", quote(line))
	}
	if n > cfg.maxVertices {
		return 0, 0, lr.errorf("p line promises %d vertices, more than the limit of %d", n, cfg.maxVertices)
	}
	return n, m, nil
}

// dimacsEdge parses line num, a line of a DIMACS file that is neither a
// comment nor a p line, as an edge of a graph on n vertices (n -1: before
// the p line). It returns the edge's 0-based endpoints, or an error and
// whether the line counts as an edge before that error shows.
func dimacsEdge(line []byte, num int, n int64) (u, v int32, counted bool, err error) {
	var f [3][]byte
	k := fields(line, f[:], false)
	if c := firstByte(line); c == 'a' || c == 'e' {
		if len(f[0]) != 1 || k < 3 {
			return 0, 0, false, lineErrorf(num, "edge line %s is not \"%c u v\"", quote(line), c)
		}
		f[0], f[1] = f[1], f[2]
	} else if k < 2 {
		return 0, 0, false, lineErrorf(num, "edge line %s is not \"u v\"", quote(line))
	}
	a, ok1 := parseInt(f[0])
	b, ok2 := parseInt(f[1])
	if !ok1 || !ok2 {
		return 0, 0, false, lineErrorf(num, "edge line %s: vertices are not integers", quote(line))
	}
	if n < 0 {
		return 0, 0, false, lineErrorf(num, "edge before the p line")
	}
	if a < 1 || a > n || b < 1 || b > n {
		return 0, 0, true, lineErrorf(num, "edge (%d, %d) out of range [1, %d]", a, b, n)
	}
	return int32(a - 1), int32(b - 1), true, nil
}

// parseDIMACSChunk parses the lines of a chunk after the p line of a
// graph on n vertices: a fast path for "u v" and "a u v" lines, and
// dimacsEdge for the rest and for errors.
func parseDIMACSChunk(c *fileio.LineChunk, n int64) pairChunk {
	const stop = classSpace | classNewline
	data := c.Data
	res := pairChunk{us: make([]int32, 0, c.Lines), vs: make([]int32, 0, c.Lines)}
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
		case 'c', '#', 0: // 0: firstByte's blank line, as the serial reader had it
			i = lineEnd(data, i) + 1
			continue
		case 'p':
			return chunkError(res, num, lineErrorf(num, "second p line"), false)
		case 'a', 'e':
			if i+1 < len(data) && byteClasses[data[i+1]]&classSpace != 0 {
				i = skipClass(data, i+1, classSpace)
			}
		}
		u, j, ok := scanInt(data, i, false, stop)
		var v int64
		if ok {
			v, j, ok = scanInt(data, skipClass(data, j, classSpace), false, stop)
		}
		if ok && 1 <= u && u <= n && 1 <= v && v <= n {
			res.us, res.vs = append(res.us, int32(u-1)), append(res.vs, int32(v-1))
			res.count++
			i = lineEnd(data, j) + 1
			continue
		}
		end := lineEnd(data, start)
		a, b, counted, err := dimacsEdge(trimCR(data[start:end]), num, n)
		if err != nil {
			return chunkError(res, num, err, counted)
		}
		res.us, res.vs = append(res.us, a), append(res.vs, b)
		res.count++
		i = end + 1
	}
	return res
}
