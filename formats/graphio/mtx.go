package graphio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/cclabel/cclabel/ecl"
)

// ReadMatrixMarket reads a Matrix Market coordinate file from r as a graph
// on n = max(rows, cols) vertices in which every stored entry (i, j) is the
// undirected edge between vertices i-1 and j-1, explicit zeros included
// unless opts.DropZeros is set. The fields pattern, integer, real and
// double and all symmetries are accepted; complex matrices and the dense
// array format are not. Base is 1.
func ReadMatrixMarket(r io.Reader, opts ReadOptions) (*LoadedGraph, error) {
	return readMatrixMarket(r, newConfig(opts, -1))
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
	c := initialCap(nnz, cfg.size, 4)
	us, vs := make([]int32, 0, c), make([]int32, 0, c)
	need := 2
	if field != mmPattern {
		need = 3
	}
	var entries int64
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if c := firstByte(line); c == 0 || c == '%' {
			continue
		}
		if entries == nnz {
			return nil, lr.errorf("more entries than the %d the size line promised", nnz)
		}
		entries++
		if k := fields(line, f[:3], false); k < need {
			return nil, lr.errorf("entry %s has %d fields, want %d", quote(line), k, need)
		}
		i, ok1 := parseInt(f[0])
		j, ok2 := parseInt(f[1])
		if !ok1 || !ok2 {
			return nil, lr.errorf("entry %s: indices are not integers", quote(line))
		}
		if i < 1 || i > rows || j < 1 || j > cols {
			return nil, lr.errorf("entry (%d, %d) out of range for a %d by %d matrix", i, j, rows, cols)
		}
		zero, err := mmZero(f[2], field)
		if err != nil {
			return nil, lr.errorf("entry %s: %v", quote(line), err)
		}
		if zero && cfg.DropZeros {
			continue
		}
		if len(us) == cap(us) {
			us, vs = growTo(us, nnz), growTo(vs, nnz)
		}
		us, vs = append(us, int32(i-1)), append(vs, int32(j-1))
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if entries != nnz {
		return nil, fmt.Errorf("formats: line %d: found %d entries, but the size line promised %d", lr.line, entries, nnz)
	}
	g, err := ecl.FromEdges(int(n), us, vs)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	return &LoadedGraph{Graph: g, Base: 1, Warnings: warnings}, nil
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
