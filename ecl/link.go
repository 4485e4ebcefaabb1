package ecl

import "sync/atomic"

// hookLog records, for every vertex that stops being a representative, the
// graph edge whose hook did it. Each vertex is hooked at most once (a
// hooked vertex is never a representative again), so every entry is written
// by one goroutine only, and the recorded edges form a spanning forest: each
// joined two different trees.
//
// Both endpoints of an edge share one 64-bit word, so a hook's record
// touches one cache line, not two.
type hookLog struct {
	edge []uint64
}

// newHookLog returns a log for n vertices.
func newHookLog(n int) *hookLog {
	return &hookLog{edge: make([]uint64, n)}
}

// record notes that the edge (v, u) hooked the representative r.
func (h *hookLog) record(r, v, u int32) {
	h.edge[r] = uint64(uint32(v))<<32 | uint64(uint32(u))
}

// link unites the sets of v and u, hooking the larger representative under
// the smaller with compare-and-swap and retrying from the returned value on
// failure, as ECL-CC's compute phase (computeRange) does. A successful
// hook is recorded in log when it is not nil. It reports whether it hooked.
func link(parent []int32, v, u int32, log *hookLog) bool {
	vrep := findAtomic(parent, v)
	urep := findAtomic(parent, u)
	for vrep != urep {
		if vrep < urep {
			if atomic.CompareAndSwapInt32(&parent[urep], urep, vrep) {
				if log != nil {
					log.record(urep, v, u)
				}
				return true
			}
			urep = atomic.LoadInt32(&parent[urep])
		} else {
			if atomic.CompareAndSwapInt32(&parent[vrep], vrep, urep) {
				if log != nil {
					log.record(vrep, v, u)
				}
				return true
			}
			vrep = atomic.LoadInt32(&parent[vrep])
		}
	}
	return false
}
