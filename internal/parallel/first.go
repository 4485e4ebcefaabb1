package parallel

import (
	"math"
	"sync/atomic"
)

// FirstIndices returns the index of the first occurrence of every label
// 1..count in labels, label k's at k-1, or -1 for a label that does not
// occur; labels 0 and above count are skipped. It scans one range of labels
// per goroutine (threads, 0 for GOMAXPROCS), in order, each lowering a
// shared minimum by compare-and-swap at most once per label it meets.
func FirstIndices(labels []uint32, count, threads int) []int {
	first := make([]int64, count)
	for i := range first {
		first[i] = math.MaxInt64
	}
	Ranges(len(labels), threads, func(lo, hi int) {
		prev := uint32(0)
		for i, lab := range labels[lo:hi] {
			if lab == prev || lab == 0 || int(lab) > count {
				prev = lab
				continue
			}
			prev = lab
			p := &first[lab-1]
			for at := int64(lo + i); ; {
				old := atomic.LoadInt64(p)
				if at >= old || atomic.CompareAndSwapInt64(p, old, at) {
					break
				}
			}
		}
	})
	out := make([]int, count)
	for i, v := range first {
		out[i] = -1
		if v != math.MaxInt64 {
			out[i] = int(v)
		}
	}
	return out
}
