package testkit

import "github.com/cclabel/cclabel/imagegraph/gridcc/grid"

// BFSLabels labels a grid by breadth-first search, the tests' oracle. It
// searches over the full stencil (every neighbour, not only backward ones),
// numbering components in order of their first pixel. It returns the labels
// and their number.
func BFSLabels(shape grid.GridShape, conn int, keys []uint32) ([]uint32, int) {
	w, h, d := shape.Width, shape.Height, shape.Depth
	labels := make([]uint32, len(keys))
	var queue []int
	next := uint32(0)
	for s := range keys {
		if keys[s] == 0 || labels[s] != 0 {
			continue
		}
		next++
		labels[s] = next
		queue = append(queue[:0], s)
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			x, y, z := v%w, v/w%h, v/(w*h)
			for dz := -1; dz <= 1; dz++ {
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						n := abs(dx) + abs(dy) + abs(dz)
						if n == 0 || !inStencil(conn, n, dz) {
							continue
						}
						nx, ny, nz := x+dx, y+dy, z+dz
						if nx < 0 || ny < 0 || nz < 0 || nx >= w || ny >= h || nz >= d {
							continue
						}
						u := nx + ny*w + nz*w*h
						if labels[u] == 0 && keys[u] == keys[v] {
							labels[u] = next
							queue = append(queue, u)
						}
					}
				}
			}
		}
	}
	return labels, int(next)
}

// inStencil reports whether an offset with L1 norm n and z step dz belongs
// to the connectivity.
func inStencil(conn, n, dz int) bool {
	switch conn {
	case 4:
		return dz == 0 && n == 1
	case 8:
		return dz == 0
	case 6:
		return n == 1
	case 18:
		return n <= 2
	}
	return true // 26
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
