package runs

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// The first pass of LabelRuns keeps the edges of every row's runs for the
// second in 2*edgeWords(width) words a row: as 16-bit bounds where its runs
// follow each other without gaps (the first's start, then each one's end;
// rows of label maps), else as 16-bit column pairs (start, end) where they
// fit (rows of few runs), else as bits.

// edgeWords returns the words of a row's run starts (or ends): a bit for
// every column and one for the end of the row.
func edgeWords(width int) int { return width/64 + 1 }

// keepEdges keeps the edges of a row's runs in edges (zeroed, 2*words
// words) and returns how it kept them: as bounds when the runs touch
// each other, returning -2 minus the number of runs; as column pairs, two
// runs a word, returning the number of runs; else as bits (markEdges),
// returning -1. Bounds and pairs are 16 bits a column, kept only when
// columns fit and the row's take no more than edges.
func keepEdges[K grid.GridKey](edges []uint64, runs []grid.KeyRun[K], width int) int32 {
	switch {
	case len(runs) == 0:
		return 0
	case width > math.MaxUint16 || len(runs) >= 4*len(edges): // neither form fits
	case touching(runs):
		b := edgeBounds(edges)
		b[0] = uint16(runs[0].Start)
		for k, r := range runs {
			b[k+1] = uint16(r.End)
		}
		return -2 - int32(len(runs))
	case len(runs) <= 2*len(edges):
		k := 0
		for ; k+2 <= len(runs); k += 2 {
			a, b := runs[k], runs[k+1]
			edges[k>>1] = uint64(a.Start) | uint64(a.End)<<16 | uint64(b.Start)<<32 | uint64(b.End)<<48
		}
		if k < len(runs) {
			edges[k>>1] = uint64(runs[k].Start) | uint64(runs[k].End)<<16
		}
		return int32(len(runs))
	}
	markEdges(edges, runs)
	return -1
}

// touching reports whether each run of runs ends where the next starts.
// It stops at the first gap: rows with background have one early.
func touching[K grid.GridKey](runs []grid.KeyRun[K]) bool {
	for k := 1; k < len(runs); k++ {
		if runs[k].Start != runs[k-1].End {
			return false
		}
	}
	return true
}

// edgeBounds returns edges as 16-bit bounds.
func edgeBounds(edges []uint64) []uint16 {
	return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(edges))), 4*len(edges))
}

// loadEdges writes the starts and ends of the runs of a row, kept by
// keepEdges in edges as n bounds (n <= -2), pairs (n >= 0) or bits (n ==
// -1), and returns their number.
func loadEdges(starts, ends []int32, edges []uint64, n int32) int {
	switch {
	case n == -1:
		words := len(edges) / 2
		m := edgeColumns(starts, edges[:words])
		edgeColumns(ends, edges[words:])
		return m
	case n < 0:
		m := int(-2 - n)
		b := edgeBounds(edges)[:m+1]
		starts, ends = starts[:m], ends[:m]
		for k := range starts {
			starts[k], ends[k] = int32(b[k]), int32(b[k+1])
		}
		return m
	}
	starts, ends = starts[:n], ends[:n]
	for k := range starts {
		e := edges[k>>1] >> (32 * (k & 1))
		starts[k], ends[k] = int32(e&0xffff), int32(e>>16&0xffff)
	}
	return int(n)
}

// markEdges sets, in edges (a row's starts, then its ends), the first
// column of every run and the column after its last.
func markEdges[K grid.GridKey](edges []uint64, runs []grid.KeyRun[K]) {
	n := len(edges) / 2
	starts, ends := edges[:n], edges[n:]
	for _, r := range runs {
		starts[r.Start>>6] |= 1 << (r.Start & 63)
		ends[r.End>>6] |= 1 << (r.End & 63)
	}
}

// edgeColumns writes into cols the columns of the set bits of edges, in
// order, and returns how many there are.
func edgeColumns(cols []int32, edges []uint64) int {
	n := 0
	for i, e := range edges {
		for ; e != 0; e &= e - 1 {
			cols[n] = int32(i<<6 | bits.TrailingZeros64(e))
			n++
		}
	}
	return n
}
