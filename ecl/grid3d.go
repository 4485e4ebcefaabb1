package ecl

// stencilOffset is a neighbour's position relative to a voxel.
type stencilOffset struct{ dx, dy, dz int }

// backwardOffsets returns the neighbours of a 3D stencil (6, 18 or 26) that
// precede a voxel in memory order (x fastest), in increasing memory order.
func backwardOffsets(connectivity int) []stencilOffset {
	// The stencil holds the offsets whose L1 norm is at most order.
	order := map[int]int{6: 1, 18: 2, 26: 3}[connectivity]
	var out []stencilOffset
	for dz := -1; dz <= 0; dz++ {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if dz == 0 && (dy > 0 || (dy == 0 && dx >= 0)) {
					continue
				}
				if abs(dx)+abs(dy)+abs(dz) <= order {
					out = append(out, stencilOffset{dx, dy, dz})
				}
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// labelBand3D runs the init and compute phases over the band's planes in
// order: each voxel points at its first backward joined neighbour and is
// hooked to the others.
func (g *gridLabeler[K]) labelBand3D(b *gridBand) {
	w, h := g.shape.Width, g.shape.Height
	plane := w * h
	z0, z1 := b.first/h, b.end/h
	prev := make([]K, plane)
	cur := make([]K, plane)
	offsets := backwardOffsets(g.conn)
	roots := 0
	for z := z0; z < z1; z++ {
		for y := range h {
			g.src.Keys(z*h+y, cur[y*w:(y+1)*w])
		}
		for y := range h {
			for x := range w {
				k := cur[y*w+x]
				v := uint32(z*plane+y*w+x) + 1
				if k == 0 {
					g.labels[v-1] = 0
					continue
				}
				var parent uint32
				for _, o := range offsets {
					nx, ny := x+o.dx, y+o.dy
					if nx < 0 || nx >= w || ny < 0 || ny >= h || (o.dz < 0 && z == z0) {
						continue
					}
					keys := cur
					if o.dz < 0 {
						keys = prev
					}
					if keys[ny*w+nx] != k {
						continue
					}
					u := uint32(int(v) + o.dx + o.dy*w + o.dz*plane)
					if parent == 0 {
						parent = u
						g.labels[v-1] = u
					} else if union(g.labels, parent, u) != 0 {
						roots--
					}
				}
				if parent == 0 {
					g.labels[v-1] = v
					roots++
				}
			}
		}
		prev, cur = cur, prev
	}
	b.roots = roots
}

// mergePlanes3D joins plane z's voxels with their neighbours in plane z-1.
func (g *gridLabeler[K]) mergePlanes3D(z int, join func(a, b uint32)) {
	w, h := g.shape.Width, g.shape.Height
	plane := w * h
	prev := make([]K, plane)
	cur := make([]K, plane)
	for y := range h {
		g.src.Keys((z-1)*h+y, prev[y*w:(y+1)*w])
		g.src.Keys(z*h+y, cur[y*w:(y+1)*w])
	}
	var below []stencilOffset
	for _, o := range backwardOffsets(g.conn) {
		if o.dz < 0 {
			below = append(below, o)
		}
	}
	for y := range h {
		for x := range w {
			k := cur[y*w+x]
			if k == 0 {
				continue
			}
			v := uint32(z*plane+y*w+x) + 1
			for _, o := range below {
				nx, ny := x+o.dx, y+o.dy
				if nx >= 0 && nx < w && ny >= 0 && ny < h && prev[ny*w+nx] == k {
					join(v, uint32(int(v)+o.dx+o.dy*w-plane))
				}
			}
		}
	}
}
