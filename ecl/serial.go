package ecl

// ComponentsSerial runs ECL-CC on one goroutine with plain loads and stores.
//
// It returns each vertex's representative (its component's smallest ID).
func ComponentsSerial(g *Graph) []int32 {
	return componentsSerial(g, nil)
}

// componentsSerial is [ComponentsSerial], recording its hooks in log when
// log is not nil.
func componentsSerial(g *Graph, log *hookLog) []int32 {
	n := g.NumVertices()
	parent := make([]int32, n)
	initParents(g, parent, 0, n, log)
	computeSerial(g, parent, log)
	flattenSerial(parent, 0, n)
	return parent
}

// findSerial returns the representative of v, halving the path on the way
// (intermediate pointer jumping: each visited element skips the next one).
func findSerial(parent []int32, v int32) int32 {
	curr := parent[v]
	if curr == v {
		return curr
	}
	prev := v
	for {
		next := parent[curr]
		if next >= curr {
			return curr
		}
		parent[prev] = next
		prev, curr = curr, next
	}
}

// computeSerial hooks every undirected edge once, from its larger endpoint,
// recording the hooks in log when it is not nil.
func computeSerial(g *Graph, parent []int32, log *hookLog) {
	offsets, nbrs := g.Offsets, g.Neighbors
	for v := range parent {
		if parent[v] == int32(v) {
			// No smaller neighbour: every edge of v is hooked from the
			// other side.
			continue
		}
		vrep := findSerial(parent, int32(v))
		for _, u := range nbrs[offsets[v]:offsets[v+1]] {
			if u >= int32(v) {
				continue
			}
			urep := findSerial(parent, u)
			switch {
			case vrep < urep:
				parent[urep] = vrep
				if log != nil {
					log.record(urep, int32(v), u)
				}
			case urep < vrep:
				parent[vrep] = urep
				if log != nil {
					log.record(vrep, int32(v), u)
				}
				vrep = urep
			}
		}
	}
}

// flattenSerial points every vertex in [lo, hi) straight at its
// representative (single pointer jumping).
func flattenSerial(parent []int32, lo, hi int) {
	for v := lo; v < hi; v++ {
		rep := parent[v]
		old := rep
		for {
			next := parent[rep]
			if next >= rep {
				break
			}
			rep = next
		}
		if rep != old {
			parent[v] = rep
		}
	}
}
