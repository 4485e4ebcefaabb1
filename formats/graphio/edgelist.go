package graphio

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/cclabel/cclabel/ecl"
)

// ReadEdgeList reads a text edge list from r. Lines starting with # or %
// are comments and blank lines are skipped; fields are separated by
// whitespace or commas, the first two of each line are integer vertex IDs
// (any int64) and further fields are ignored. Every line is an undirected
// edge. The vertices are exactly the IDs that appear, numbered in
// ascending ID order; LoadedGraph.IDs maps them back. ReadFile also
// skips a header line in .csv files; ReadEdgeList does not.
func ReadEdgeList(r io.Reader, opts ReadOptions) (*LoadedGraph, error) {
	return readEdgeList(r, newConfig(opts, -1))
}

// readEdgeList implements ReadEdgeList, with header detection when
// cfg.csvHeader is set: a first non-comment line whose first two fields are
// both non-numeric is skipped with a warning.
func readEdgeList(r io.Reader, cfg readConfig) (*LoadedGraph, error) {
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
	ids, us, vs, err := compactIDs(ends, lo, hi, cfg.maxVertices)
	if err != nil {
		return nil, err
	}
	g, err := ecl.FromEdges(len(ids), us, vs)
	if err != nil {
		return nil, fmt.Errorf("formats: %w", err)
	}
	return &LoadedGraph{Graph: g, IDs: ids, Warnings: warnings}, nil
}

// isNumber reports whether b parses as a number (integer or not), which
// rules it out as a CSV header field.
func isNumber(b []byte) bool {
	_, err := strconv.ParseFloat(string(b), 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// compactIDs numbers the distinct IDs of ends, all within [lo, hi], in
// ascending order. It returns them and each edge's endpoints as vertex
// numbers. Dense ID ranges use a lookup table, others a sort.
func compactIDs(ends []int64, lo, hi, maxVertices int64) (ids []int64, us, vs []int32, err error) {
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

// tooManyIDs reports an edge list with more distinct IDs than allowed.
func tooManyIDs(count int, limit int64) error {
	return fmt.Errorf("formats: %d distinct vertex IDs exceed the limit of %d vertices", count, limit)
}
