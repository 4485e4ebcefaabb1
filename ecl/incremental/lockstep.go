package incremental

import "sync/atomic"

// group is the number of edges whose finds run in lockstep.
const group = 64

// linkGroup links the edges (us[i], vs[i]), at most group of them, and
// returns how many united two components. Their 2·len(us) finds advance
// in lockstep, one step of each per pass: the loads of one pass do not
// depend on one another, so the processor overlaps their cache misses
// instead of waiting for each in turn, which is where a union-find over a
// large array spends its time. Each step halves the path, as find does.
// The hooks then go one edge at a time; a failed compare-and-swap (a root
// hooked meanwhile, by another goroutine or an earlier edge of the group)
// falls back to link.
func linkGroup(parent []int32, us, vs []int32) int {
	var prev, curr [2 * group]int32
	m := len(us)
	for i := range m {
		prev[2*i], prev[2*i+1] = us[i], vs[i]
	}
	for i := range 2 * m {
		curr[i] = atomic.LoadInt32(&parent[prev[i]])
	}
	for {
		active := false
		for i := range 2 * m {
			c := curr[i]
			if c == prev[i] {
				continue // at the root
			}
			next := atomic.LoadInt32(&parent[c])
			if next == c {
				prev[i] = c // root found: mark as done
				continue
			}
			atomic.StoreInt32(&parent[prev[i]], next)
			prev[i], curr[i] = c, next
			active = true
		}
		if !active {
			break
		}
	}
	hooks := 0
	for i := range m {
		ra, rb := curr[2*i], curr[2*i+1]
		switch {
		case ra == rb:
			continue
		case ra < rb && atomic.CompareAndSwapInt32(&parent[rb], rb, ra):
			hooks++
		case rb < ra && atomic.CompareAndSwapInt32(&parent[ra], ra, rb):
			hooks++
		default:
			if link(parent, ra, rb) {
				hooks++
			}
		}
	}
	return hooks
}
