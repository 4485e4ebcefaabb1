package runs

import (
	"math"
	"math/bits"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// The first pass of LabelRuns keeps the edges of every row's runs for the
// second in 2*edgeWords(width) words a row: as 16-bit column pairs (start,
// end) where they fit (rows of few runs, as in label maps), else as bits.

// edgeWords returns the words of a row's run starts (or ends): a bit for
// every column and one for the end of the row.
func edgeWords(width int) int { return width/64 + 1 }

// keepEdges keeps the edges of a row's runs in edges (zeroed, 2*words
// words): as column pairs, two runs a word, when they fit and columns fit
// 16 bits, returning the number of runs; else as bits (markEdges),
// returning -1.
func keepEdges[K grid.GridKey](edges []uint64, runs []grid.KeyRun[K], width int) int32 {
	if width > math.MaxUint16 || len(runs) > 2*len(edges) {
		markEdges(edges, runs)
		return -1
	}
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

// loadEdges writes the starts and ends of the runs of a row, kept by
// keepEdges in edges as n pairs (n >= 0) or as bits (n < 0), and returns
// their number.
func loadEdges(starts, ends []int32, edges []uint64, n int32) int {
	if n < 0 {
		words := len(edges) / 2
		m := edgeColumns(starts, edges[:words])
		edgeColumns(ends, edges[words:])
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
