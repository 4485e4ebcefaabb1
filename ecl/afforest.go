package ecl

import (
	"sync/atomic"

	"github.com/cclabel/cclabel/internal/parallel"
)

// DefaultSampleRounds is Afforest's default k: the number of neighbours
// of each vertex linked before the largest intermediate component is
// looked for. Measured on the 2-core VM (see README): k = 2 was fastest
// or within noise of the fastest on grids, random and R-MAT graphs.
const DefaultSampleRounds = 2

// giantSamples is the number of vertices sampled to find the largest
// intermediate component.
const giantSamples = 1024

// ComponentsAfforest runs Afforest (Sutton et al., IPDPS'18) on up to
// threads goroutines (0 means GOMAXPROCS) and returns each vertex's
// representative, the smallest ID of its component, exactly as ECL-CC
// does. It first links each vertex to its first k neighbours in adjacency
// order (k = rounds; 0 or less means DefaultSampleRounds), compressing the
// trees after every round; then it samples vertices to find the largest
// intermediate component and links the remaining edges of the vertices
// outside it only: edges with both ends inside it cannot change the
// result. Hooks are ECL-CC's (larger representative under smaller, with
// compare-and-swap), so the representatives stay the smallest IDs.
func ComponentsAfforest(g *Graph, threads, rounds int) []int32 {
	return afforest(g, threads, rounds, nil)
}

// afforest is ComponentsAfforest, recording its hooks in log when log is
// not nil.
func afforest(g *Graph, threads, rounds int, log *hookLog) []int32 {
	if rounds <= 0 {
		rounds = DefaultSampleRounds
	}
	n := g.NumVertices()
	parent := make([]int32, n)
	offsets, nbrs := g.Offsets, g.Neighbors
	parallel.Ranges(n, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			parent[v] = int32(v)
		}
	})
	for r := range int32(rounds) {
		parallel.Chunks(n, threads, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				if i := offsets[v] + r; i < offsets[v+1] {
					link(parent, int32(v), nbrs[i], log)
				}
			}
		})
		parallel.Ranges(n, threads, func(lo, hi int) { flattenRange(parent, lo, hi) })
	}
	giant := sampleGiant(parent)
	k := int32(rounds)
	parallel.Chunks(n, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			// A vertex whose parent is giant belongs to the giant's set
			// (sets only grow), so its edges change nothing: any edge to a
			// vertex outside is linked from that vertex's side.
			if atomic.LoadInt32(&parent[v]) == giant {
				continue
			}
			for _, u := range nbrs[min(offsets[v]+k, offsets[v+1]):offsets[v+1]] {
				link(parent, int32(v), u, log)
			}
		}
	})
	parallel.Ranges(n, threads, func(lo, hi int) { flattenRange(parent, lo, hi) })
	return parent
}

// sampleGiant returns the most frequent representative among giantSamples
// vertices drawn by a fixed pseudo-random sequence from the compressed
// parent array (the first most frequent one among equals), or -1 for an
// empty graph.
func sampleGiant(parent []int32) int32 {
	n := uint64(len(parent))
	if n == 0 {
		return -1
	}
	counts := make(map[int32]int, giantSamples)
	best, bestCount := int32(-1), 0
	var state uint64
	for range giantSamples {
		state += 0x9e3779b97f4a7c15
		x := mix64(state)
		rep := parent[(x>>32)*n>>32] // n < 2^31: a uniform index below n
		c := counts[rep] + 1
		counts[rep] = c
		if c > bestCount {
			best, bestCount = rep, c
		}
	}
	return best
}

// mix64 is SplitMix64's output function.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
