package graphio

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"strconv"
	"time"
)

// ReadMatrixMarket reads a Matrix Market coordinate file from r as a graph.
// The graph has n = max(rows, cols) vertices, and every stored entry (i, j)
// is the undirected edge between vertices i-1 and j-1, explicit zeros
// included unless opts.DropZeros is set. The fields pattern, integer, real
// and double and all symmetries are accepted; complex matrices and the dense
// array format are not. Base is 1. The entries are parsed in chunks on
// opts.Threads goroutines.
func ReadMatrixMarket(r io.Reader, opts ReadOptions) (*LoadedGraph, error) {
	return readGraph(r, FormatMatrixMarket, newConfig(opts, -1))
}

// mmField is the value type of a Matrix Market file.
type mmField int

const (
	mmPattern mmField = iota
	mmInteger
	mmReal
)

// readMatrixMarket implements ReadMatrixMarket.
func readMatrixMarket(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
	lr := newLineReader(r)
	field, err := readMMBanner(lr)
	if err != nil {
		return nil, err
	}
	var f [4][]byte
	var rows, cols, nnz int64
	sized := false
	for !sized {
		line, ok := lr.next()
		if !ok {
			if lr.err != nil {
				return nil, lr.err
			}
			return nil, fmt.Errorf("formats: line %d: missing size line \"rows cols entries\"", lr.line)
		}
		if c := firstByte(line); c == 0 || c == '%' {
			continue
		}
		if fields(line, f[:], false) != 3 {
			return nil, lr.errorf("size line %s is not \"rows cols entries\"", quote(line))
		}
		var ok1, ok2, ok3 bool
		rows, ok1 = parseInt(f[0])
		cols, ok2 = parseInt(f[1])
		nnz, ok3 = parseInt(f[2])
		if !ok1 || !ok2 || !ok3 || rows < 0 || cols < 0 || nnz < 0 {
			return nil, lr.errorf("size line %s is not three non-negative integers", quote(line))
		}
		sized = true
	}
	n := max(rows, cols)
	if n > cfg.maxVertices {
		return nil, lr.errorf("matrix dimension %d exceeds the limit of %d vertices", n, cfg.maxVertices)
	}
	var warnings []string
	if rows != cols {
		warnings = append(warnings, fmt.Sprintf("matrix is %d by %d, not square: read as a graph on %d vertices", rows, cols, n))
	}
	entries := &pairCounter{limit: nnz, tooMany: "more entries than the %d the size line promised", comment: mmComment}
	body := mmBody{rows: rows, cols: cols, field: field, dropZeros: cfg.DropZeros}
	lines, err := fileio.ForLineChunks(lr.br, lr.line, cfg.parseThreads(), cfg.chunkBytes, body.parseChunk, entries.commit)
	if err != nil {
		return nil, err
	}
	if entries.total != nnz {
		return nil, fmt.Errorf("formats: line %d: found %d entries, but the size line promised %d", lines, entries.total, nnz)
	}
	build := time.Now()
	us, vs := entries.edges(cfg.Threads)
	g, err := buildGraph(int(n), us, vs, cfg.Threads)
	if err != nil {
		return nil, err
	}
	if w := isolatedWarning("size line", "entry", n, nnz, us, vs); w != "" {
		warnings = append(warnings, w)
	}
	return &LoadedGraph{Graph: g, Base: 1, Warnings: warnings, Stats: ReadStats{Build: time.Since(build)}}, nil
}

// mmComment reports whether a Matrix Market line starting with c (0 for
// a blank line) is a comment.
func mmComment(c byte) bool { return c == 0 || c == '%' }

// mmBody is what parsing a Matrix Market file's entries needs from its
// header.
type mmBody struct {
	rows, cols int64
	field      mmField
	dropZeros  bool
}

// entry parses line num, an entry. It returns the edge and whether to
// keep it (not an explicit zero to drop), or an error.
func (b *mmBody) entry(line []byte, num int) (u, v int32, keep bool, err error) {
	var f [3][]byte
	need := 2
	if b.field != mmPattern {
		need = 3
	}
	if k := fields(line, f[:], false); k < need {
		return 0, 0, false, lineErrorf(num, "entry %s has %d fields, want %d", quote(line), k, need)
	}
	i, ok1 := parseInt(f[0])
	j, ok2 := parseInt(f[1])
	if !ok1 || !ok2 {
		return 0, 0, false, lineErrorf(num, "entry %s: indices are not integers", quote(line))
	}
	if i < 1 || i > b.rows || j < 1 || j > b.cols {
		return 0, 0, false, lineErrorf(num, "entry (%d, %d) out of range for a %d by %d matrix", i, j, b.rows, b.cols)
	}
	zero, err := mmZero(f[2], b.field)
	if err != nil {
		return 0, 0, false, lineErrorf(num, "entry %s: %v", quote(line), err)
	}
	return int32(i - 1), int32(j - 1), !(zero && b.dropZeros), nil
}

// parseChunk parses the entries of a chunk: a fast path for plain
// "i j [value]" lines, and entry for the rest and for errors. Every line
// that is not a comment counts as an entry before its errors show.
func (b *mmBody) parseChunk(c *fileio.LineChunk) pairChunk {
	const stop = classSpace | classNewline
	data := c.Data
	res := pairChunk{us: make([]int32, 0, c.Lines), vs: make([]int32, 0, c.Lines)}
	num := c.Line
	for p := 0; p < len(data); {
		num++
		start := p
		p = skipClass(data, p, classSpace)
		if p == len(data) {
			break
		}
		switch data[p] {
		case '\n':
			p++
			continue
		case '%', 0: // 0: firstByte's blank line, as the serial reader had it
			p = lineEnd(data, p) + 1
			continue
		}
		res.count++
		i, q, ok := scanInt(data, p, false, stop)
		var j int64
		if ok {
			j, q, ok = scanInt(data, skipClass(data, q, classSpace), false, stop)
		}
		ok = ok && 1 <= i && i <= b.rows && 1 <= j && j <= b.cols
		zero := false
		if ok && b.field != mmPattern {
			zero, q, ok = scanPlainValue(data, skipClass(data, q, classSpace), b.field == mmReal)
		}
		if ok {
			if !zero || !b.dropZeros {
				res.us, res.vs = append(res.us, int32(i-1)), append(res.vs, int32(j-1))
			}
			p = lineEnd(data, q) + 1
			continue
		}
		end := lineEnd(data, start)
		u, v, keep, err := b.entry(trimCR(data[start:end]), num)
		if err != nil {
			res.count--
			return chunkError(res, num, err, true)
		}
		if keep {
			res.us, res.vs = append(res.us, u), append(res.vs, v)
		}
		p = end + 1
	}
	return res
}

// scanPlainValue parses the value at data[i:] of the simplest forms,
// [+-]digits, and with dot set also [+-]digits.digits, [+-]digits. and
// [+-].digits, ending at the end of data, a space or a line end. It
// reports whether the value is zero, and ok false for anything else
// (exponents, inf, a stray byte), which mmZero then judges.
func scanPlainValue(data []byte, i int, dot bool) (zero bool, next int, ok bool) {
	if i < len(data) && (data[i] == '-' || data[i] == '+') {
		i++
	}
	digits, seenDot := 0, false
	zero = true
	for ; i < len(data); i++ {
		c := data[i]
		switch {
		case '0' <= c && c <= '9':
			digits++
			zero = zero && c == '0'
		case c == '.' && dot && !seenDot:
			seenDot = true
		default:
			if byteClasses[c]&(classSpace|classNewline) == 0 {
				return false, 0, false
			}
			return zero, i, digits > 0
		}
	}
	return zero, i, digits > 0
}

// readMMBanner reads the %%MatrixMarket line and returns the field.
func readMMBanner(lr *lineReader) (mmField, error) {
	line, ok := lr.next()
	if !ok {
		if lr.err != nil {
			return 0, lr.err
		}
		return 0, errors.New("formats: empty input (a Matrix Market file starts with a %%MatrixMarket line)")
	}
	var f [6][]byte
	k := fields(line, f[:], false)
	if k == 0 || !bytes.EqualFold(f[0], []byte("%%MatrixMarket")) {
		return 0, lr.errorf("missing %%%%MatrixMarket header, found %s", quote(line))
	}
	if k != 5 {
		return 0, lr.errorf("header %s is not \"%%%%MatrixMarket matrix coordinate FIELD SYMMETRY\"", quote(line))
	}
	lower := func(b []byte) string { return string(bytes.ToLower(b)) }
	if obj := lower(f[1]); obj != "matrix" {
		return 0, lr.errorf("unsupported Matrix Market object %s (want matrix)", quote(f[1]))
	}
	switch lower(f[2]) {
	case "coordinate":
	case "array":
		return 0, lr.errorf("dense array Matrix Market files are not supported (want coordinate)")
	default:
		return 0, lr.errorf("unknown Matrix Market format %s (want coordinate)", quote(f[2]))
	}
	var field mmField
	switch lower(f[3]) {
	case "pattern":
		field = mmPattern
	case "integer":
		field = mmInteger
	case "real", "double":
		field = mmReal
	case "complex":
		return 0, lr.errorf("complex Matrix Market files are not supported (want pattern, integer or real)")
	default:
		return 0, lr.errorf("unknown Matrix Market field %s (want pattern, integer or real)", quote(f[3]))
	}
	switch lower(f[4]) {
	case "general", "symmetric", "skew-symmetric", "hermitian":
	default:
		return 0, lr.errorf("unknown Matrix Market symmetry %s (want general, symmetric, skew-symmetric or hermitian)", quote(f[4]))
	}
	return field, nil
}

// mmZero parses an entry's value and reports whether it is exactly zero;
// pattern entries have no value and are never zero.
func mmZero(v []byte, field mmField) (bool, error) {
	switch field {
	case mmInteger:
		digits := v
		if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
			digits = digits[1:]
		}
		zero := len(digits) > 0
		for _, c := range digits {
			if c < '0' || c > '9' {
				return false, fmt.Errorf("value %s is not an integer", quote(v))
			}
			zero = zero && c == '0'
		}
		if len(digits) == 0 {
			return false, fmt.Errorf("value %s is not an integer", quote(v))
		}
		return zero, nil
	case mmReal:
		x, err := strconv.ParseFloat(string(v), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return false, fmt.Errorf("value %s is not a real number", quote(v))
		}
		return x == 0, nil
	}
	return false, nil
}
