package incremental

import (
	"fmt"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/ecl/incremental"
	"github.com/cclabel/cclabel/internal/parallel"
)

// incGrain rounds the edge buffers' capacity up, so that batches of
// slowly growing sizes do not reallocate each time.
const incGrain = 1 << 20

// reserve makes the edge buffers hold at least k vertices each, keeping
// them when they do (call inside do).
func (inc *Incremental) reserve(k int) error {
	if k <= inc.capacity {
		return nil
	}
	c := inc.c
	c.Free(inc.us)
	c.Free(inc.vs)
	inc.us, inc.vs, inc.capacity = driver.Buffer{}, driver.Buffer{}, 0
	size := (k + incGrain - 1) / incGrain * incGrain
	size = max(k, min(size, inc.maxChunk))
	var err error
	if inc.us, err = c.Alloc(uint64(4 * size)); err != nil {
		return fmt.Errorf("cuda: incremental: a batch buffer of %d vertices: %w", size, err)
	}
	if inc.vs, err = c.Alloc(uint64(4 * size)); err != nil {
		c.Free(inc.us)
		inc.us = driver.Buffer{}
		return fmt.Errorf("cuda: incremental: a batch buffer of %d vertices: %w", size, err)
	}
	inc.capacity = size
	return nil
}

// uploadPair copies us and vs into the edge buffers through the pinned
// staging buffers (call inside do).
func (inc *Incremental) uploadPair(us, vs []int32) error {
	bytes := uint64(4 * len(us))
	if err := inc.c.UploadStaged(inc.us.Ptr, unsafe.Pointer(&us[0]), bytes); err != nil {
		return err
	}
	return inc.c.UploadStaged(inc.vs.Ptr, unsafe.Pointer(&vs[0]), bytes)
}

// blocks returns the grid for a grid-stride pass over k items: enough
// blocks to fill the device, fewer for a small pass.
func (inc *Incremental) blocks(k int) uint32 {
	need := (k + threadsPerBlock - 1) / threadsPerBlock
	return uint32(max(1, min(need, inc.c.ResidentThreads()/threadsPerBlock)))
}

// usable checks that the Incremental is open and that a call's two
// vertex lists have one length.
func (inc *Incremental) usable(op string, a, b int) error {
	if inc.c == nil {
		return fmt.Errorf("cuda: incremental: %s: closed", op)
	}
	if a != b {
		return fmt.Errorf("cuda: incremental: %s: %d first vertices but %d second", op, a, b)
	}
	return nil
}

// rangeError describes pair i, which has a vertex outside [0, n); it wraps
// [incremental.ErrVertexRange].
func (inc *Incremental) rangeError(op string, i int, us, vs []int32) error {
	return fmt.Errorf("cuda: incremental: %s: pair %d (%d, %d): %w [0, %d)", op, i, us[i], vs[i], incremental.ErrVertexRange, inc.n)
}

// firstOutOfRange returns the first i with us[i] or vs[i] outside
// [0, n), or -1, checking ranges of pairs on all cores.
func firstOutOfRange(us, vs []int32, n int) int {
	threads := parallel.ClampThreads(0, (len(us)+parallel.DynamicChunk-1)/parallel.DynamicChunk)
	var first [parallel.MaxThreads]int
	for t := range first {
		first[t] = -1
	}
	parallel.RangesIndexed(len(us), threads, func(t, lo, hi int) {
		for i := lo; i < hi; i++ {
			if uint32(us[i]) >= uint32(n) || uint32(vs[i]) >= uint32(n) {
				first[t] = i
				return
			}
		}
	})
	for t := range threads {
		if first[t] >= 0 {
			return first[t]
		}
	}
	return -1
}

// countRoots returns the number of vertices that point at themselves and
// the first vertex that points outside [0, itself], or -1.
func countRoots(parent []int32) (roots int64, bad int) {
	threads := parallel.ClampThreads(0, (len(parent)+parallel.DynamicChunk-1)/parallel.DynamicChunk)
	var counts [parallel.MaxThreads]int64
	var first [parallel.MaxThreads]int
	for t := range first {
		first[t] = -1
	}
	parallel.RangesIndexed(len(parent), threads, func(t, lo, hi int) {
		for v := lo; v < hi; v++ {
			p := parent[v]
			if p < 0 || p > int32(v) {
				first[t] = v
				return
			}
			if p == int32(v) {
				counts[t]++
			}
		}
	})
	for t := range threads {
		if first[t] >= 0 {
			return 0, first[t]
		}
		roots += counts[t]
	}
	return roots, -1
}
