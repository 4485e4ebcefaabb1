package job

import (
	"sync/atomic"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/parallel"
)

// labelsAndLargest returns the labels of res (see [ecl.Result.Labels]) and
// the size of its largest component, on threads goroutines. It counts the
// members of each component in the label slice, at its representative,
// before writing the labels there, so that a graph of many components
// needs no array of sizes besides the labels.
func labelsAndLargest(res *ecl.Result, threads int) ([]uint32, int64) {
	parent := res.Parent
	labels := make([]uint32, len(parent))
	if len(parent) == 0 {
		return labels, 0
	}
	// labels[r] counts the members of r's component other than r. A
	// goroutine adds a run of members of one component at once, so that a
	// large component's counter is not fought over member by member.
	parallel.Ranges(len(parent), threads, func(lo, hi int) {
		last, run := int32(-1), uint32(0)
		for v := lo; v < hi; v++ {
			p := parent[v]
			if p == int32(v) {
				continue
			}
			if p != last {
				if run > 0 {
					atomic.AddUint32(&labels[last], run)
				}
				last, run = p, 0
			}
			run++
		}
		if run > 0 {
			atomic.AddUint32(&labels[last], run)
		}
	})
	largest := int64(parallel.Max(labels)) + 1
	res.LabelsInto(labels, threads)
	return labels, largest
}
