package graphio

import (
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/internal/parallel"
)

// pairChunk is a parsed chunk of a format whose header promises how many
// lines of edges follow (DIMACS, Matrix Market).
type pairChunk struct {
	us, vs []int32 // the edges, 0-based
	// count is the number of counted lines (edge lines, entries) before
	// err's line, or in the whole chunk.
	count int64
	// err is the chunk's first bad line, which ends it.
	err error
	// errLine is err's line number; errCounted says whether that line
	// counts toward the promised number before its error shows, so that
	// one too many lines reports that instead.
	errLine    int
	errCounted bool
}

// pairCounter collects pairChunks in input order, checking that no more
// lines come than promised.
type pairCounter struct {
	limit   int64             // the promised number of lines
	tooMany string            // the error for one too many, with %d for limit
	comment func(c byte) bool // whether a line's first byte makes it uncounted
	total   int64             // lines counted so far
	chunks  []pairChunk
}

// commit takes the next chunk, c, parsed as res. It returns the error
// that a serial reader would meet first: one line too many, or the
// chunk's own.
func (p *pairCounter) commit(c *fileio.LineChunk, res pairChunk) error {
	need := p.limit - p.total
	if res.count > need {
		return lineErrorf(p.countedLine(c, need+1), p.tooMany, p.limit)
	}
	if res.err != nil {
		if res.errCounted && res.count == need {
			return lineErrorf(res.errLine, p.tooMany, p.limit)
		}
		return res.err
	}
	p.total += res.count
	if len(res.us) > 0 {
		p.chunks = append(p.chunks, res)
	}
	return nil
}

// countedLine returns the number of the k-th counted line of c.
func (p *pairCounter) countedLine(c *fileio.LineChunk, k int64) int {
	found := 0
	c.EachLine(func(num int, line []byte) bool {
		if !p.comment(firstByte(line)) {
			if k--; k == 0 {
				found = num
				return false
			}
		}
		return true
	})
	return found
}

// edges returns the edges of all chunks, in order, on threads
// goroutines.
func (p *pairCounter) edges(threads int) (us, vs []int32) {
	starts := make([]int, len(p.chunks)+1)
	for i, c := range p.chunks {
		starts[i+1] = starts[i] + len(c.us)
	}
	m := starts[len(p.chunks)]
	us, vs = make([]int32, m), make([]int32, m)
	parallel.Chunks(len(p.chunks), threads, func(a, b int) {
		for i := a; i < b; i++ {
			copy(us[starts[i]:], p.chunks[i].us)
			copy(vs[starts[i]:], p.chunks[i].vs)
		}
	})
	p.chunks = nil
	return us, vs
}

// chunkError ends a chunk at the bad line num.
func chunkError(res pairChunk, num int, err error, counted bool) pairChunk {
	res.err, res.errLine, res.errCounted = err, num, counted
	return res
}
