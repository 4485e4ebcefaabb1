// Package csrfile reads or maps the arrays of CSR graph files (.egr) and
// checks them on several goroutines (offsets, neighbour IDs, sorted lists
// and symmetry, with the errors of [ecl.Graph.Validate]); it also writes them.
package csrfile

import (
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/parallel"
)

// Facts are what one pass over the neighbour array learns.
type Facts struct {
	InRange bool  // every neighbour ID lies in [0, n)
	Sorted  bool  // every adjacency list is non-decreasing
	Strict  bool  // every adjacency list is strictly increasing
	Up      int64 // arcs (v,u) with u > v
	Down    int64 // arcs (v,u) with u < v

	fp    fingerprint // the arcs' symmetry fingerprint
	hasFP bool        // fp is set
}

// Validate is [ecl.Graph.Validate] on threads goroutines, for a
// graph whose offsets have n+1 entries (n < 2^31-1). When the graph is
// invalid it returns Validate's own error, so the message and the check
// that reports it are the same. It also returns the facts of the neighbour
// pass, valid when the error is nil.
func Validate(g *ecl.Graph, threads int) (Facts, error) {
	off := g.Offsets
	if len(off) == 0 || off[0] != 0 || off[len(off)-1] != int64(len(g.Neighbors)) || !monotone(off, threads) {
		return Facts{}, g.Validate()
	}
	f := Scan(g, threads)
	if !f.InRange {
		return f, g.Validate()
	}
	return f, nil
}

// monotone reports whether off is non-decreasing.
func monotone(off []int64, threads int) bool {
	var bad atomic.Bool
	parallel.Ranges(len(off)-1, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if off[v+1] < off[v] {
				bad.Store(true)
				return
			}
		}
	})
	return !bad.Load()
}

// Scan checks the neighbour IDs of g, whose offsets are valid, counts its
// arcs by direction and takes their symmetry fingerprint.
func Scan(g *ecl.Graph, threads int) Facts {
	n := g.NumVertices()
	threads = parallel.ClampThreads(threads, n)
	parts := make([]Facts, threads)
	for t := range parts {
		parts[t] = Facts{InRange: true, Sorted: true, Strict: true, fp: unitFingerprint()}
	}
	keys := newFPKeys()
	g.VertexRanges(threads, func(t, lo, hi int) {
		f := Facts{InRange: true, Sorted: true, Strict: true, fp: unitFingerprint()}
		off, nbrs := g.Offsets, g.Neighbors
		// The loop has no branch that depends on the IDs' values but for
		// rare errors: the comparisons are summed.
		var top uint32
		var up, down int64
		for v := lo; v < hi; v++ {
			adj := nbrs[off[v]:off[v+1]]
			f.fp.vertex(&keys, v, adj)
			prev := int32(-1)
			for _, u := range adj {
				top = max(top, uint32(u))
				if u <= prev {
					f.Strict = false
					if u < prev {
						f.Sorted = false
					}
				}
				prev = u
				up += b2i(int(u) > v)
				down += b2i(int(u) < v)
			}
		}
		f.InRange = top < uint32(n)
		f.Up, f.Down = up, down
		parts[t] = f
	})
	all := Facts{InRange: true, Sorted: true, Strict: true, fp: unitFingerprint()}
	for _, f := range parts {
		all.fp.merge(f.fp)
		all.InRange = all.InRange && f.InRange
		all.Sorted = all.Sorted && f.Sorted
		all.Strict = all.Strict && f.Strict
		all.Up += f.Up
		all.Down += f.Down
	}
	all.hasFP = all.Sorted
	return all
}

// symBlockBytes is the CSR size a block of target vertices aims at, so
// that the lookups into one block stay in a core's cache.
var symBlockBytes int64 = 1 << 20

// symRoundDiv sets the size of a round of the symmetry check: a round
// covers at most 1/symRoundDiv of the arcs (and at least symMinRound, at
// most symMaxRound, which bounds the scratch), and half as many when arcs
// in both directions are looked up.
var (
	symRoundDiv       = 4
	symMinRound int64 = 1 << 16
	symMaxRound int64 = 1 << 24
)

// Symmetric reports whether g, valid and with sorted adjacency lists,
// is symmetric: whether every arc (v,u) has its reverse (u,v).
//
// When f comes from [Scan] and its fingerprint shows the arcs and their
// reverses are the same multiset, the answer is yes at no further cost; a
// graph that is not symmetric passes this test with a probability below
// 2^-62 for 2^30 arcs. Otherwise (duplicate arcs, or a graph that is not
// symmetric) the exact check below decides.
//
// The exact check needs scratch: see [ScratchBytes].
func Symmetric(g *ecl.Graph, threads int, f Facts) bool {
	if f.hasFP && f.Up == f.Down && f.fp.balanced() {
		return true
	}
	return symmetricExact(g, threads, f)
}

// symmetricExact is [Symmetric] without the fingerprint.
//
// The arcs to look up are partitioned by the block of their target vertex,
// then looked up block by block, so that each lookup touches only the
// block's part of the graph. With strictly increasing lists (f.Strict) only
// upward arcs are looked up: they map one-to-one onto downward reverses, so
// equal counts then mean every downward arc has its reverse too; each
// target's lookups then walk its list in order. Otherwise arcs in both
// directions are looked up by binary search. The check is exact. Its
// scratch holds one 8-byte query per looked-up arc of a round (about one
// byte per arc of the graph, and at most 8·symMaxRound bytes) and, for
// strict lists, 4 bytes per vertex.
func symmetricExact(g *ecl.Graph, threads int, f Facts) bool {
	if f.Strict && f.Up != f.Down {
		return false
	}

	n := g.NumVertices()
	m := int64(len(g.Neighbors))
	if m == 0 {
		return true
	}
	// Blocks are runs of 2^shift vertex IDs.
	blocks := max(g.Bytes()/symBlockBytes, 1)
	shift := 0
	for int64(n>>shift) > min(blocks, 1<<14) {
		shift++
	}
	nb := (n >> shift) + 1
	div := int64(symRoundDiv)
	if !f.Strict {
		div *= 2
	}
	round := min(m, max(m/div, symMinRound), symMaxRound)
	var buf []uint64
	// With strict lists, the upward arcs into u arrive in increasing order
	// of their source, which is the order of u's downward arcs at the start
	// of its list: cur[u] counts those matched so far.
	var cur []uint32
	if f.Strict && m <= math.MaxUint32 {
		cur = make([]uint32, n)
	}
	threads = parallel.ClampThreads(threads, int(round))
	hist := make([][]int64, threads)
	for t := range hist {
		hist[t] = make([]int64, nb)
	}
	off, nbrs := g.Offsets, g.Neighbors
	// lists calls body with each vertex whose list has arcs at positions
	// [lo, hi) and the part of its list there.
	lists := func(lo, hi int64, body func(v int, adj []int32)) {
		v := sort.Search(n, func(v int) bool { return off[v+1] > lo })
		for p := lo; p < hi; v++ {
			end := min(off[v+1], hi)
			body(v, nbrs[p:end])
			p = end
		}
	}
	strict := f.Strict
	for p0 := int64(0); p0 < m; p0 += round {
		p1 := min(p0+round, m)
		span := p1 - p0
		part := func(t int) (int64, int64) {
			return p0 + span*int64(t)/int64(threads), p0 + span*int64(t+1)/int64(threads)
		}
		parallel.RangesIndexed(threads, threads, func(t, _, _ int) {
			h := hist[t]
			clear(h)
			lo, hi := part(t)
			lists(lo, hi, func(v int, adj []int32) {
				for _, u := range adj {
					if int(u) > v || (!strict && int(u) < v) {
						h[u>>shift]++
					}
				}
			})
		})
		// Bucket b of thread t starts after every bucket before b and
		// thread t's predecessors' share of b.
		starts := make([]int64, nb+1)
		var at int64
		for b := range nb {
			starts[b] = at
			for t := range threads {
				c := hist[t][b]
				hist[t][b] = at
				at += c
			}
		}
		starts[nb] = at
		if at > int64(len(buf)) {
			buf = nil
			buf = make([]uint64, at)
		}
		parallel.RangesIndexed(threads, threads, func(t, _, _ int) {
			h := hist[t]
			lo, hi := part(t)
			lists(lo, hi, func(v int, adj []int32) {
				for _, u := range adj {
					if int(u) > v || (!strict && int(u) < v) {
						b := u >> shift
						buf[h[b]] = uint64(u)<<32 | uint64(uint32(v))
						h[b]++
					}
				}
			})
		})
		var next atomic.Int64
		var bad atomic.Bool
		var wg sync.WaitGroup
		for range threads {
			wg.Go(func() {
				for !bad.Load() {
					b := next.Add(1) - 1
					if b >= int64(nb) {
						return
					}
					qs := buf[starts[b]:starts[b+1]]
					if cur != nil {
						for _, q := range qs {
							u, v := int(q>>32), int32(uint32(q))
							c, start := cur[u], off[u]
							if int64(c) >= off[u+1]-start || nbrs[start+int64(c)] != v {
								bad.Store(true)
								return
							}
							cur[u] = c + 1
						}
						continue
					}
					for _, q := range qs {
						u, v := int(q>>32), int32(uint32(q))
						if _, ok := slices.BinarySearch(nbrs[off[u]:off[u+1]], v); !ok {
							bad.Store(true)
							return
						}
					}
				}
			})
		}
		wg.Wait()
		if bad.Load() {
			return false
		}
	}
	return true
}

// ScratchBytes returns the most bytes [Symmetric]'s exact check holds for
// its queries on a graph of m arcs whose lists are strictly increasing.
func ScratchBytes(m int64) int64 {
	return 8 * min(m, max(m/int64(symRoundDiv), symMinRound), symMaxRound)
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
