package imagegraph

import (
	"fmt"
	"math"

	"github.com/cclabel/cclabel/ecl"
)

// offset is a stencil neighbour's position relative to a pixel.
type offset struct{ dx, dy, dz int }

// Stencil returns the neighbour offsets of a connectivity (4 or 8 in 2D, 6,
// 18 or 26 in 3D), in increasing memory order (x fastest).
func Stencil(conn int) ([][3]int, error) {
	var order, depth int
	switch conn {
	case 4:
		order, depth = 1, 0
	case 8:
		order, depth = 2, 0
	case 6:
		order, depth = 1, 1
	case 18:
		order, depth = 2, 1
	case 26:
		order, depth = 3, 1
	default:
		return nil, fmt.Errorf("imagegraph: unknown connectivity %d", conn)
	}
	var out [][3]int
	for dz := -depth; dz <= depth; dz++ {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				n := abs(dx) + abs(dy) + abs(dz)
				if n > 0 && n <= order {
					out = append(out, [3]int{dx, dy, dz})
				}
			}
		}
	}
	return out, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Grid is the implicit graph of a raster: its vertices are the pixels, and
// two pixels are joined when they are stencil neighbours and the rule
// connects them. Neighbours are computed on demand; no CSR is stored.
type Grid struct {
	r       *Raster
	rule    Rule
	conn    int
	stencil [][3]int
}

// NewGrid returns the implicit graph of r under rule and connectivity.
func NewGrid(r *Raster, rule Rule, conn int) (*Grid, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := rule.Validate(); err != nil {
		return nil, err
	}
	if err := ValidConnectivity(conn, r.Is3D()); err != nil {
		return nil, err
	}
	st, err := Stencil(conn)
	if err != nil {
		return nil, err
	}
	return &Grid{r: r, rule: rule, conn: conn, stencil: st}, nil
}

// NumVertices returns the number of pixels.
func (g *Grid) NumVertices() int { return g.r.Len() }

// Key returns pixel v's connectivity key: 0 for background; neighbours
// with equal keys are joined.
func (g *Grid) Key(v int) uint64 {
	f := g.r.Value(v)
	if !g.rule.Foreground(f) {
		return 0
	}
	if g.rule.Mode != Multilabel {
		return 1
	}
	switch d := g.r.Data.(type) {
	case []int64:
		return uint64(d[v])
	case []uint64:
		return d[v]
	case []float32:
		return uint64(math.Float32bits(d[v]))
	case []float64:
		return math.Float64bits(d[v])
	}
	return uint64(int64(f))
}

// Neighbors appends to buf the pixels joined to v, in increasing order,
// and returns it.
func (g *Grid) Neighbors(v int, buf []int32) []int32 {
	buf = buf[:0]
	k := g.Key(v)
	if k == 0 {
		return buf
	}
	w, h, d := g.r.Width, g.r.Height, g.r.Depth
	x, y, z := v%w, v/w%h, v/(w*h)
	for _, o := range g.stencil {
		nx, ny, nz := x+o[0], y+o[1], z+o[2]
		if nx < 0 || ny < 0 || nz < 0 || nx >= w || ny >= h || nz >= d {
			continue
		}
		u := nx + ny*w + nz*w*h
		if g.Key(u) == k {
			buf = append(buf, int32(u))
		}
	}
	return buf
}

// Degree returns the number of pixels joined to v.
func (g *Grid) Degree(v int) int {
	var buf [26]int32
	return len(g.Neighbors(v, buf[:0]))
}

// Materialize builds the grid's CSR graph (background pixels are isolated
// vertices), for the general graph path and for tests.
func (g *Grid) Materialize() (*ecl.Graph, error) {
	n := g.NumVertices()
	offsets := make([]int64, n+1)
	var nbrs []int32
	var buf [26]int32
	for v := range n {
		adj := g.Neighbors(v, buf[:0])
		nbrs = append(nbrs, adj...)
		offsets[v+1] = int64(len(nbrs))
	}
	return &ecl.Graph{Offsets: offsets, Neighbors: nbrs}, nil
}
