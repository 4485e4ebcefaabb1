package runs

import (
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

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

// planeRuns holds the runs of one plane, row by row: the runs of row y are
// runs[rowStart[y]:rowStart[y+1]].
type planeRuns[K grid.GridKey] struct {
	runs     []gridRun[K]
	rowStart []int
}

// row returns the runs of row y.
func (p *planeRuns[K]) row(y int) []gridRun[K] { return p.runs[p.rowStart[y]:p.rowStart[y+1]] }

// runRef is a row whose runs a new row is linked against: its runs, the
// index+1 of its first pixel, how far diagonally contact reaches (1 when
// diagonal neighbours count, else 0), and a cursor into runs.
type runRef[K grid.GridKey] struct {
	runs  []gridRun[K]
	base  uint32
	slack int32
	next  int
}

// labelBand3D runs the init and compute phases over the band's planes in
// order, as runs: each run's first voxel points at the first joined run
// among the row above and the three rows below-behind (its first smaller
// neighbours), the other joined runs are hooked to it.
func (g *gridLabeler[K]) labelBand3D(b *band.Band) {
	w, h := g.shape.Width, g.shape.Height
	z0, z1 := b.First/h, b.End/h
	keys := make([]K, w)
	bounds := make([]int32, w+1)
	prev := &planeRuns[K]{rowStart: make([]int, h+1)}
	cur := &planeRuns[K]{rowStart: make([]int, h+1)}
	same, below := band.PlaneSlack(g.conn)
	plane := uint32(w * h)
	refs := make([]runRef[K], 0, 4)
	roots := 0
	for z := z0; z < z1; z++ {
		cur.runs = cur.runs[:0]
		for y := range h {
			row := z*h + y
			g.src.Keys(row, keys)
			start := len(cur.runs)
			cur.runs = appendRuns(cur.runs, keys, bounds)
			cur.rowStart[y+1] = len(cur.runs)
			base := uint32(row*w) + 1
			refs = refs[:0]
			if y > 0 {
				refs = append(refs, runRef[K]{runs: cur.row(y - 1), base: base - uint32(w), slack: same})
			}
			if z > z0 {
				for dy := -1; dy <= 1; dy++ {
					if s := below[dy+1]; s >= 0 && y+dy >= 0 && y+dy < h {
						refs = append(refs, runRef[K]{runs: prev.row(y + dy), base: base - plane + uint32(dy*w), slack: s})
					}
				}
			}
			roots += linkRunsRefs(g.labels, g.labels[row*w:row*w+w], refs, cur.runs[start:], base)
		}
		prev, cur = cur, prev
	}
	b.Roots = roots
}

// linkRunsRefs writes the parents of a row's pixels, given the earlier
// rows its runs can touch (refs): background 0, each run's first pixel its
// first joined pixel among refs (or itself), the others the run's first
// pixel; further joined runs are hooked. It returns the roots made minus
// the roots hooked away.
func linkRunsRefs[K grid.GridKey](labels, row []uint32, refs []runRef[K], cur []gridRun[K], base uint32) int {
	clear(row)
	roots := 0
	for _, r := range cur {
		var parent uint32
		for k := range refs {
			ref := &refs[k]
			runs := ref.runs
			j := ref.next
			for j < len(runs) && runs[j].end+ref.slack <= r.start {
				j++
			}
			ref.next = j
			for i := j; i < len(runs) && runs[i].start < r.end+ref.slack; i++ {
				if runs[i].key != r.key {
					continue
				}
				u := ref.base + uint32(runs[i].start)
				if parent == 0 {
					parent = u
				} else if band.Union(labels, parent, u) != 0 {
					roots--
				}
			}
		}
		first := base + uint32(r.start)
		if parent == 0 {
			parent = first
			roots++
		}
		row[r.start] = parent
		for x := r.start + 1; x < r.end; x++ {
			row[x] = first
		}
	}
	return roots
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
