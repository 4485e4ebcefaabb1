package incremental

import "sync/atomic"

// find returns the representative of v, halving the path on the way.
func find(parent []int32, v int32) int32 {
	curr := atomic.LoadInt32(&parent[v])
	if curr == v {
		return curr
	}
	prev := v
	for {
		next := atomic.LoadInt32(&parent[curr])
		if next == curr {
			return curr
		}
		atomic.StoreInt32(&parent[prev], next)
		prev, curr = curr, next
	}
}

// connected reports whether a and b have the same representative. A
// representative found first may be hooked before the second find ends;
// the loop then retries, so the answer is exact whenever no hook joins
// the two sets meanwhile.
func connected(parent []int32, a, b int32) bool {
	for {
		ra, rb := find(parent, a), find(parent, b)
		if ra == rb {
			return true
		}
		// ra is still a root: a and b were apart when rb was found.
		if atomic.LoadInt32(&parent[ra]) == ra {
			return false
		}
		a = ra
	}
}

// link unites the sets of a and b, hooking the larger representative
// under the smaller with compare-and-swap, and reports whether it united
// two sets.
func link(parent []int32, a, b int32) bool {
	ra, rb := find(parent, a), find(parent, b)
	for ra != rb {
		if ra < rb {
			if atomic.CompareAndSwapInt32(&parent[rb], rb, ra) {
				return true
			}
			rb = find(parent, rb)
		} else {
			if atomic.CompareAndSwapInt32(&parent[ra], ra, rb) {
				return true
			}
			ra = find(parent, ra)
		}
	}
	return false
}
