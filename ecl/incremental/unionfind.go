package incremental

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/parallel"
)

// ErrVertexRange is wrapped by the errors of calls given a vertex out of
// range.
//
// A vertex ID is out of range outside [0, n).
var ErrVertexRange = errors.New("vertex out of range")

// UnionFind is the CPU backend of [Connectivity], a concurrent union-find.
//
// Its int32 parent pointers are updated with atomic loads, stores and
// compare-and-swap, so every method is safe for concurrent use. A query
// that overlaps an Insert sees some of the batch's edges. Batches are
// inserted by several goroutines at once with ECL-CC's hooking (the
// larger representative under the smaller, with compare-and-swap; finds
// halve their paths).
type UnionFind struct {
	parent  []int32
	threads int
	count   atomic.Int64
	scalar  bool // link edge by edge instead of in lockstep groups (measurements)
}

var _ Connectivity = (*UnionFind)(nil)

// New returns a [UnionFind] of n isolated vertices.
//
// Its batches are inserted and queried by up to threads goroutines (0
// means GOMAXPROCS).
func New(n, threads int) (*UnionFind, error) {
	if n < 0 || n > math.MaxInt32 {
		return nil, fmt.Errorf("incremental: vertex count %d out of range [0, %d]", n, math.MaxInt32)
	}
	if threads < 0 {
		return nil, fmt.Errorf("incremental: %d threads: want 0 (all cores) or more", threads)
	}
	parent := make([]int32, n)
	parallel.Ranges(n, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			parent[v] = int32(v)
		}
	})
	u := &UnionFind{parent: parent, threads: threads}
	u.count.Store(int64(n))
	return u, nil
}

// FromRepresentatives returns a [UnionFind] whose components are those of
// parent.
//
// parent holds the representatives of a static labeling
// ([ecl.Result].Parent), or any forest in which every vertex points at
// itself or at a smaller vertex. The UnionFind takes parent over: the
// caller must not use it afterwards.
func FromRepresentatives(parent []int32, threads int) (*UnionFind, error) {
	if len(parent) > math.MaxInt32 {
		return nil, fmt.Errorf("incremental: %d vertices exceed int32 IDs", len(parent))
	}
	if threads < 0 {
		return nil, fmt.Errorf("incremental: %d threads: want 0 (all cores) or more", threads)
	}
	threads = parallel.ClampThreads(threads, len(parent))
	var roots [parallel.MaxThreads]int64
	var bad [parallel.MaxThreads]int64
	for t := range bad {
		bad[t] = -1
	}
	parallel.RangesIndexed(len(parent), threads, func(t, lo, hi int) {
		for v := lo; v < hi; v++ {
			p := parent[v]
			if p < 0 || p > int32(v) {
				bad[t] = int64(v)
				return
			}
			if p == int32(v) {
				roots[t]++
			}
		}
	})
	var count int64
	for t := range threads {
		if v := bad[t]; v >= 0 {
			return nil, fmt.Errorf("incremental: vertex %d points at %d, want a vertex in [0, %d]", v, parent[v], v)
		}
		count += roots[t]
	}
	u := &UnionFind{parent: parent, threads: threads}
	u.count.Store(count)
	return u, nil
}

// NumVertices returns the number of vertices.
func (u *UnionFind) NumVertices() int { return len(u.parent) }

// Components returns the number of components.
func (u *UnionFind) Components() int { return int(u.count.Load()) }

// Insert adds the undirected edges (us[i], vs[i]).
//
// It uses up to the UnionFind's threads goroutines. It checks every ID
// before inserting anything, so a failed Insert changes nothing.
func (u *UnionFind) Insert(us, vs []int32) error {
	if err := u.check("insert", us, vs); err != nil {
		return err
	}
	parallel.Chunks(len(us), u.threads, func(lo, hi int) {
		if hooks := u.insertRange(us[lo:hi], vs[lo:hi]); hooks > 0 {
			u.count.Add(-int64(hooks))
		}
	})
	return nil
}

// insertRange links the edges (us[i], vs[i]) and returns how many united
// two components.
func (u *UnionFind) insertRange(us, vs []int32) int {
	hooks := 0
	if u.scalar {
		for i, a := range us {
			if link(u.parent, a, vs[i]) {
				hooks++
			}
		}
		return hooks
	}
	for lo := 0; lo < len(us); lo += group {
		hi := min(lo+group, len(us))
		hooks += linkGroup(u.parent, us[lo:hi], vs[lo:hi])
	}
	return hooks
}

// Connected reports whether a and b are in the same component.
func (u *UnionFind) Connected(a, b int32) (bool, error) {
	if err := u.checkVertex("connected", a); err != nil {
		return false, err
	}
	if err := u.checkVertex("connected", b); err != nil {
		return false, err
	}
	return connected(u.parent, a, b), nil
}

// Representative returns the smallest vertex ID of v's component.
func (u *UnionFind) Representative(v int32) (int32, error) {
	if err := u.checkVertex("representative", v); err != nil {
		return 0, err
	}
	return find(u.parent, v), nil
}

// ConnectedBatch sets dst[i] to whether us[i] and vs[i] are connected.
//
// It uses up to the UnionFind's threads goroutines.
func (u *UnionFind) ConnectedBatch(us, vs []int32, dst []bool) error {
	if len(dst) != len(us) {
		return fmt.Errorf("incremental: connected: %d queries but %d answers", len(us), len(dst))
	}
	if err := u.check("connected", us, vs); err != nil {
		return err
	}
	parallel.Chunks(len(us), u.threads, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = connected(u.parent, us[i], vs[i])
		}
	})
	return nil
}

// RepresentativesBatch sets dst[i] to the representative of vs[i].
//
// It uses up to the UnionFind's threads goroutines.
func (u *UnionFind) RepresentativesBatch(vs, dst []int32) error {
	if len(dst) != len(vs) {
		return fmt.Errorf("incremental: representatives: %d queries but %d answers", len(vs), len(dst))
	}
	if err := u.check("representatives", vs, vs); err != nil {
		return err
	}
	parallel.Chunks(len(vs), u.threads, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = find(u.parent, vs[i])
		}
	})
	return nil
}

// Result returns the components as a static labeling.
//
// The labeling holds a copy of the representatives, each vertex pointing
// straight at its component's smallest vertex, and the count;
// [ecl.Result.Labels] numbers them.
func (u *UnionFind) Result() *ecl.Result {
	n := len(u.parent)
	reps := make([]int32, n)
	parallel.Ranges(n, u.threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			reps[v] = find(u.parent, int32(v))
		}
	})
	return ecl.NewResult(reps, u.threads)
}

// check returns an error naming the first pair with an ID outside [0, n),
// or a length mismatch.
func (u *UnionFind) check(op string, us, vs []int32) error {
	if len(us) != len(vs) {
		return fmt.Errorf("incremental: %s: %d first vertices but %d second", op, len(us), len(vs))
	}
	n := uint32(len(u.parent))
	threads := parallel.ClampThreads(u.threads, (len(us)+parallel.DynamicChunk-1)/parallel.DynamicChunk)
	var first [parallel.MaxThreads]int
	for t := range first {
		first[t] = -1
	}
	parallel.RangesIndexed(len(us), threads, func(t, lo, hi int) {
		for i := lo; i < hi; i++ {
			if uint32(us[i]) >= n || uint32(vs[i]) >= n {
				first[t] = i
				return
			}
		}
	})
	for t := range threads {
		if i := first[t]; i >= 0 {
			return fmt.Errorf("incremental: %s: pair %d (%d, %d): %w [0, %d)", op, i, us[i], vs[i], ErrVertexRange, n)
		}
	}
	return nil
}

// checkVertex returns an error when v is outside [0, n).
func (u *UnionFind) checkVertex(op string, v int32) error {
	if uint32(v) >= uint32(len(u.parent)) {
		return fmt.Errorf("incremental: %s: vertex %d: %w [0, %d)", op, v, ErrVertexRange, len(u.parent))
	}
	return nil
}
