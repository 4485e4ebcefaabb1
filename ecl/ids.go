package ecl

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/cclabel/cclabel/internal/parallel"
)

// IDEdges is a run of undirected edges given by vertex IDs, as an edge
// list names them: u0, v0, u1, v1, ... in Narrow when every ID lies in
// [0, 2^32) (half the memory), else in Wide. Lo and Hi are the smallest
// and largest ID.
type IDEdges struct {
	Narrow []uint32
	Wide   []int64
	Lo, Hi int64
}

// Len returns the number of IDs in e: twice its edges.
func (e *IDEdges) Len() int { return len(e.Wide) + len(e.Narrow) }

// IDLimitError reports edges with more distinct vertex IDs than a limit
// allows.
type IDLimitError struct {
	Count int   // the distinct IDs found so far
	Limit int64 // the most allowed
}

// Error returns "ecl: COUNT distinct vertex IDs exceed the limit of LIMIT
// vertices".
func (e *IDLimitError) Error() string {
	return fmt.Sprintf("ecl: %d distinct vertex IDs exceed the limit of %d vertices", e.Count, e.Limit)
}

// id is the type of stored edge-list IDs: narrow or wide.
type id interface{ uint32 | int64 }

// idRank numbers the distinct IDs of an edge list: by offset from lo
// when every ID of [lo, hi] is present, else by a bitmap of that range
// (dense), else by binary search in the sorted IDs.
type idRank struct {
	lo       int64
	identity bool
	bm       []uint64 // bit d: ID lo+d is present
	prefix   []int32  // set bits in the words of bm before each
	sorted   []int64
}

// rank returns the vertex number of ID x, which must be present.
func (r *idRank) rank(x int64) int32 {
	switch {
	case r.identity:
		return int32(x - r.lo)
	case r.bm != nil:
		d := uint64(x - r.lo)
		w := d / 64
		return r.prefix[w] + int32(bits.OnesCount64(r.bm[w]&(1<<(d%64)-1)))
	}
	i, _ := slices.BinarySearch(r.sorted, x)
	return int32(i)
}

// rankEdges sets u[i] and v[i] to the vertex numbers of ids[2i] and
// ids[2i+1], with the common rankings inlined.
func rankEdges[T id](r *idRank, ids []T, u, v []int32) {
	ids = ids[:2*min(len(ids)/2, len(u), len(v))]
	lo := r.lo
	switch {
	case r.identity:
		for i := range len(ids) / 2 {
			u[i], v[i] = int32(int64(ids[2*i])-lo), int32(int64(ids[2*i+1])-lo)
		}
	case r.bm != nil:
		bm, prefix := r.bm, r.prefix
		dense := func(x T) int32 {
			d := uint64(int64(x) - lo)
			w := d / 64
			return prefix[w] + int32(bits.OnesCount64(bm[w]&(1<<(d%64)-1)))
		}
		for i := range len(ids) / 2 {
			u[i], v[i] = dense(ids[2*i]), dense(ids[2*i+1])
		}
	default:
		for i := range len(ids) / 2 {
			u[i], v[i] = r.rank(int64(ids[2*i])), r.rank(int64(ids[2*i+1]))
		}
	}
}

// CompactIDs numbers the distinct vertex IDs of the runs' edges in
// ascending order, on threads goroutines, and returns them with each
// edge's endpoints as vertex numbers, in the runs' order: the edges that
// [FromEdgesParallel] takes, on len(ids) vertices. A dense ID range uses a
// bitmap, others a sort. More than maxVertices distinct IDs give an
// [*IDLimitError]. runs must not be empty.
func CompactIDs(runs []IDEdges, maxVertices int64, threads int) (ids []int64, us, vs []int32, err error) {
	lo, hi := runs[0].Lo, runs[0].Hi
	starts := make([]int, len(runs)+1) // edge offset of each run
	for i, c := range runs {
		lo, hi = min(lo, c.Lo), max(hi, c.Hi)
		starts[i+1] = starts[i] + c.Len()/2
	}
	m := starts[len(runs)]
	var r *idRank
	if span := uint64(hi) - uint64(lo); span < 2*uint64(m)+1024 {
		ids, r, err = denseIDs(runs, lo, span, maxVertices, threads)
	} else {
		ids, r, err = sortedIDs(runs, m, maxVertices, threads)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	us, vs = make([]int32, m), make([]int32, m)
	parallel.Chunks(len(runs), threads, func(a, b int) {
		for ci := a; ci < b; ci++ {
			u, v := us[starts[ci]:starts[ci+1]], vs[starts[ci]:starts[ci+1]]
			rankEdges(r, runs[ci].Narrow, u, v)
			rankEdges(r, runs[ci].Wide, u, v)
		}
	})
	return ids, us, vs, nil
}

// markIDs sets the bit of each of ids, less lo, in bm.
func markIDs[T id](bm []uint64, ids []T, lo int64) {
	for _, x := range ids {
		d := uint64(int64(x) - lo)
		bm[d/64] |= 1 << (d % 64)
	}
}

// denseIDs finds the IDs of the runs, all within [lo, lo+span], with a
// bitmap of the range (one per goroutine, then merged), and returns them
// and their ranking.
func denseIDs(runs []IDEdges, lo int64, span uint64, maxVertices int64, threads int) ([]int64, *idRank, error) {
	words := int(span/64) + 1
	threads = parallel.ClampThreads(threads, len(runs))
	maps := make([][]uint64, threads)
	parallel.RangesIndexed(len(runs), threads, func(t, a, b int) {
		bm := make([]uint64, words)
		for _, c := range runs[a:b] {
			markIDs(bm, c.Narrow, lo)
			markIDs(bm, c.Wide, lo)
		}
		maps[t] = bm
	})
	bm := maps[0]
	counts := make([]int, threads+1)
	parallel.RangesIndexed(words, threads, func(t, a, b int) {
		count := 0
		for w := a; w < b; w++ {
			for _, other := range maps[1:] {
				bm[w] |= other[w]
			}
			count += bits.OnesCount64(bm[w])
		}
		counts[t+1] = count
	})
	for t := range threads {
		counts[t+1] += counts[t]
	}
	total := counts[threads]
	if int64(total) > maxVertices {
		return nil, nil, &IDLimitError{Count: total, Limit: maxVertices}
	}
	ids := make([]int64, total)
	prefix := make([]int32, words)
	parallel.RangesIndexed(words, threads, func(t, a, b int) {
		k := counts[t]
		for w := a; w < b; w++ {
			prefix[w] = int32(k)
			for word := bm[w]; word != 0; word &= word - 1 {
				ids[k] = lo + int64(w*64+bits.TrailingZeros64(word))
				k++
			}
		}
	})
	if uint64(total) == span+1 { // every ID of the range
		return ids, &idRank{lo: lo, identity: true}, nil
	}
	return ids, &idRank{lo: lo, bm: bm, prefix: prefix}, nil
}

// sortedIDs finds the distinct IDs of the runs' m edges by sorting
// them (in one part per goroutine, then merging), and returns them and
// their ranking, a binary search.
func sortedIDs(runs []IDEdges, m int, maxVertices int64, threads int) ([]int64, *idRank, error) {
	all := make([]int64, 0, 2*m)
	for _, c := range runs {
		for _, x := range c.Narrow {
			all = append(all, int64(x))
		}
		all = append(all, c.Wide...)
	}
	threads = parallel.ClampThreads(threads, len(all)/(1<<16)+1)
	parts := make([][]int64, threads)
	parallel.RangesIndexed(len(all), threads, func(t, a, b int) {
		p := all[a:b]
		slices.Sort(p)
		parts[t] = slices.Compact(p)
	})
	for len(parts) > 1 { // merge pairs of parts, in parallel
		merged := make([][]int64, (len(parts)+1)/2)
		parallel.Ranges(len(merged), threads, func(a, b int) {
			for i := a; i < b; i++ {
				if 2*i+1 == len(parts) {
					merged[i] = parts[2*i]
				} else {
					merged[i] = mergeUnique(parts[2*i], parts[2*i+1])
				}
			}
		})
		parts = merged
	}
	ids := slices.Clip(parts[0])
	if int64(len(ids)) > maxVertices {
		return nil, nil, &IDLimitError{Count: len(ids), Limit: maxVertices}
	}
	return ids, &idRank{sorted: ids}, nil
}

// mergeUnique merges two ascending slices of distinct values into a new
// one without repeats.
func mergeUnique(a, b []int64) []int64 {
	out := make([]int64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
