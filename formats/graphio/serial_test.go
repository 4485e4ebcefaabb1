package graphio

// The serial readers as they were before chunked parsing, kept as the
// oracle that the chunked readers must match exactly: the same graph, IDs
// and warnings, or the same error message.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/cclabel/cclabel/ecl"
)

// readEdgeList implements ReadEdgeList, with header detection when
// cfg.csvHeader is set: a first non-comment line whose first two fields are
// both non-numeric is skipped with a warning.
func serialEdgeList(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
	lr := newLineReader(r)
	var warnings []string
	var ends []int64 // u0, v0, u1, v1, ...
	lo, hi := int64(0), int64(0)
	first := true
	var f [2][]byte
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if c := firstByte(line); c == 0 || c == '#' || c == '%' {
			continue
		}
		header := first && cfg.csvHeader
		first = false
		if k := fields(line, f[:], true); k < 2 {
			return nil, lr.errorf("need two vertex IDs, found %s", quote(line))
		}
		u, ok1 := parseInt(f[0])
		v, ok2 := parseInt(f[1])
		if !ok1 || !ok2 {
			if header && !isNumber(f[0]) && !isNumber(f[1]) {
				warnings = append(warnings, fmt.Sprintf("line %d: skipped CSV header %s", lr.line, quote(line)))
				continue
			}
			bad := f[0]
			if ok1 {
				bad = f[1]
			}
			return nil, lr.errorf("vertex ID %s is not an integer", quote(bad))
		}
		if len(ends) == 0 {
			lo, hi = u, u
		}
		lo, hi = min(lo, u, v), max(hi, u, v)
		ends = append(ends, u, v)
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if len(ends) == 0 {
		if lr.line == 0 {
			return nil, errors.New("formats: empty input: no edges")
		}
		return nil, fmt.Errorf("formats: line %d: no edges in the edge list", lr.line)
	}
	ids, us, vs, err := serialCompactIDs(ends, lo, hi, cfg.maxVertices)
	if err != nil {
		return nil, err
	}
	g, err := ecl.FromEdges(len(ids), us, vs)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	return &LoadedGraph{Graph: g, IDs: ids, Warnings: warnings}, nil
}

// compactIDs numbers the distinct IDs of ends, all within [lo, hi], in
// ascending order. It returns them and each edge's endpoints as vertex
// numbers. Dense ID ranges use a lookup table, others a sort.
func serialCompactIDs(ends []int64, lo, hi, maxVertices int64) (ids []int64, us, vs []int32, err error) {
	m := len(ends) / 2
	us, vs = make([]int32, m), make([]int32, m)
	if span := uint64(hi) - uint64(lo); span < uint64(len(ends))+1024 {
		table := make([]int32, span+1)
		for _, x := range ends {
			table[x-lo] = 1
		}
		count := 0
		for _, present := range table {
			count += int(present)
		}
		if int64(count) > maxVertices {
			return nil, nil, nil, tooManyIDs(count, maxVertices)
		}
		ids = make([]int64, 0, count)
		for i, present := range table {
			if present != 0 {
				table[i] = int32(len(ids))
				ids = append(ids, lo+int64(i))
			}
		}
		for i := range us {
			us[i], vs[i] = table[ends[2*i]-lo], table[ends[2*i+1]-lo]
		}
		return ids, us, vs, nil
	}
	ids = slices.Clone(ends)
	slices.Sort(ids)
	ids = slices.Clip(slices.Compact(ids))
	if int64(len(ids)) > maxVertices {
		return nil, nil, nil, tooManyIDs(len(ids), maxVertices)
	}
	rank := func(x int64) int32 {
		r, _ := slices.BinarySearch(ids, x)
		return int32(r)
	}
	for i := range us {
		us[i], vs[i] = rank(ends[2*i]), rank(ends[2*i+1])
	}
	return ids, us, vs, nil
}

// readDIMACS implements ReadDIMACS.
func serialDIMACS(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
	lr := newLineReader(r)
	var f [4][]byte
	var n, m, edges int64
	var us, vs []int32
	seenP := false
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		c := firstByte(line)
		switch c {
		case 0, 'c', '#':
			continue
		case 'p':
			if seenP {
				return nil, lr.errorf("second p line")
			}
			var err error
			if n, m, err = dimacsProblem(lr, line, cfg); err != nil {
				return nil, err
			}
			seenP = true
			c := initialCap(m, cfg.size, 4)
			us, vs = make([]int32, 0, c), make([]int32, 0, c)
			continue
		}
		k := fields(line, f[:3], false)
		if c == 'a' || c == 'e' {
			if len(f[0]) != 1 || k < 3 {
				return nil, lr.errorf("edge line %s is not \"%c u v\"", quote(line), c)
			}
			f[0], f[1] = f[1], f[2]
		} else if k < 2 {
			return nil, lr.errorf("edge line %s is not \"u v\"", quote(line))
		}
		u, ok1 := parseInt(f[0])
		v, ok2 := parseInt(f[1])
		if !ok1 || !ok2 {
			return nil, lr.errorf("edge line %s: vertices are not integers", quote(line))
		}
		if !seenP {
			return nil, lr.errorf("edge before the p line")
		}
		if edges == m {
			return nil, lr.errorf("more edges than the %d the p line promised", m)
		}
		if u < 1 || u > n || v < 1 || v > n {
			return nil, lr.errorf("edge (%d, %d) out of range [1, %d]", u, v, n)
		}
		edges++
		if len(us) == cap(us) {
			us, vs = growTo(us, m), growTo(vs, m)
		}
		us, vs = append(us, int32(u-1)), append(vs, int32(v-1))
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
	if edges != m {
		return nil, fmt.Errorf("formats: line %d: found %d edges, but the p line promised %d", lr.line, edges, m)
	}
	g, err := ecl.FromEdges(int(n), us, vs)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	return &LoadedGraph{Graph: g, Base: 1}, nil
}

// readMatrixMarket implements ReadMatrixMarket.
func serialMatrixMarket(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
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

// initialCap returns a capacity for a slice that a header says will hold
// promised items of at least minBytes input bytes each: all of them when
// the input (size bytes, or -1 when unknown) can hold that many, and at
// most 1<<20 when the size is unknown, so that a lying header costs
// little. Slices then grow with growTo.
func initialCap(promised, size, minBytes int64) int {
	c := min(promised, 1<<20)
	if size >= 0 {
		c = min(promised, size/minBytes+1)
	}
	return int(max(c, 0))
}

// growTo returns s with room for one more item, doubling its capacity but
// never beyond limit (the count a header promised), so that the final
// slice is not larger than needed. The caller ensures len(s) < limit.
func growTo(s []int32, limit int64) []int32 {
	if len(s) < cap(s) {
		return s
	}
	c := int(min(int64(max(2*cap(s), 1024)), limit, math.MaxInt))
	t := make([]int32, len(s), c)
	copy(t, s)
	return t
}
