package ecl

import "github.com/cclabel/cclabel/internal/parallel"

// AdaptiveMinGiant is the giant's share at which adaptive Afforest stops
// after one round.
//
// The share is that of the sampled vertices held by the largest
// intermediate component. R-MAT graphs reach it, and one round suits them
// best; uniform random graphs do not, and need two rounds (after one,
// Afforest is slower than ECL-CC on them).
const AdaptiveMinGiant = 0.25

// giantSamples is the number of vertices sampled to find the largest
// intermediate component.
const giantSamples = 1024

// ComponentsAfforest runs Afforest and returns each vertex's representative.
//
// Afforest (Sutton et al., IPDPS'18) runs on up to threads goroutines (0
// means GOMAXPROCS), and the representatives are the smallest IDs of their
// components, exactly as ECL-CC gives them.
//
// It first links every vertex to k of its neighbours, compressing the
// trees after every round: round 0 is ECL-CC's init (each vertex points
// at its first smaller neighbour, no atomics needed), round r > 0 links
// the neighbour at position r of the adjacency list. k = rounds; 0 or
// less means adaptive: 1, or 2 when after round 0 the largest component
// holds less than [AdaptiveMinGiant] of the sampled vertices. Then it
// samples vertices to find the largest intermediate component and links
// the remaining edges of the vertices outside it only: an edge with both
// ends inside cannot change the result. An edge between two vertices
// outside is linked once, from its larger end; an edge into the
// component, from its outside end. Hooks are ECL-CC's (larger
// representative under smaller, with compare-and-swap), so the
// representatives stay the smallest IDs. Adjacency lists need not be
// sorted.
func ComponentsAfforest(g *Graph, threads, rounds int) []int32 {
	return afforest(g, threads, rounds, nil)
}

// afforest is [ComponentsAfforest], recording its hooks in log when log is
// not nil.
func afforest(g *Graph, threads, rounds int, log *hookLog) []int32 {
	adaptive := rounds <= 0
	if adaptive {
		rounds = 2
	}
	n := g.NumVertices()
	parent := make([]int32, n)
	offsets, nbrs := g.Offsets, g.Neighbors
	parallel.Ranges(n, threads, func(lo, hi int) { initParents(g, parent, lo, hi, log) })
	parallel.Ranges(n, threads, func(lo, hi int) { flattenRange(parent, lo, hi) })
	giant, share := sampleGiant(parent)
	if adaptive && share >= AdaptiveMinGiant {
		rounds = 1
	}
	for r := int32(1); r < int32(rounds); r++ {
		parallel.Chunks(n, threads, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				if i := offsets[v] + int64(r); i < offsets[v+1] {
					link(parent, int32(v), nbrs[i], log)
				}
			}
		})
		parallel.Ranges(n, threads, func(lo, hi int) { flattenRange(parent, lo, hi) })
		giant, _ = sampleGiant(parent)
	}
	inGiant := giantMembers(parent, giant, threads)
	k := int64(rounds)
	parallel.Chunks(n, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if inGiant.has(int32(v)) {
				continue
			}
			start, end := offsets[v], offsets[v+1]
			if start == end {
				continue
			}
			// Round 0 linked the first smaller neighbour, which is the
			// first neighbour only when that one is smaller; a larger
			// first neighbour outside the giant links this edge itself.
			if u := nbrs[start]; u > int32(v) && inGiant.has(u) {
				link(parent, int32(v), u, log)
			}
			for _, u := range nbrs[min(start+k, end):end] {
				// An edge between two vertices outside the giant is
				// linked from its larger end; an edge into the giant
				// only from the outside.
				if u < int32(v) || inGiant.has(u) {
					link(parent, int32(v), u, log)
				}
			}
		}
	})
	parallel.Ranges(n, threads, func(lo, hi int) { flattenRange(parent, lo, hi) })
	return parent
}

// bitset is a set of vertices, one bit each.
type bitset []uint64

// has reports whether v is in the set.
func (b bitset) has(v int32) bool { return b[v>>6]&(1<<(v&63)) != 0 }

// giantMembers returns the set of vertices whose (compressed) parent is
// giant, built with up to threads goroutines.
func giantMembers(parent []int32, giant int32, threads int) bitset {
	n := len(parent)
	set := make(bitset, (n+63)/64)
	parallel.Ranges(len(set), threads, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			var word uint64
			for i, p := range parent[w*64 : min(w*64+64, n)] {
				if p == giant {
					word |= 1 << i
				}
			}
			set[w] = word
		}
	})
	return set
}

// sampleGiant returns the most frequent representative among giantSamples
// vertices drawn by a fixed pseudo-random sequence from the compressed
// parent array (the first most frequent one among equals), or -1 for an
// empty graph, and the share of the samples it holds.
func sampleGiant(parent []int32) (int32, float64) {
	n := uint64(len(parent))
	if n == 0 {
		return -1, 0
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
	return best, float64(bestCount) / giantSamples
}

// mix64 is SplitMix64's output function.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
