package gridcc

import (
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
)

// Grid is the implicit graph of a raster, its neighbours computed on
// demand. Its vertices are the pixels; two are joined when they are
// stencil neighbours and the rule joins them. It serves as a reference
// for tests and, through [Grid.Materialize], for the general graph path.
type Grid struct {
	r       *imagegraph.Raster
	rule    imagegraph.Rule
	conn    int
	stencil [][3]int
	src     source
}

// NewGrid returns the implicit graph of r under rule and connectivity.
func NewGrid(r *imagegraph.Raster, rule imagegraph.Rule, conn int) (*Grid, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := rule.Validate(); err != nil {
		return nil, err
	}
	if err := imagegraph.ValidConnectivity(conn, r.Is3D()); err != nil {
		return nil, err
	}
	st, err := imagegraph.Stencil(conn)
	if err != nil {
		return nil, err
	}
	return &Grid{r: r, rule: rule, conn: conn, stencil: st, src: newSource(r, rule)}, nil
}

// NumVertices returns the number of pixels.
func (g *Grid) NumVertices() int { return g.r.Len() }

// Key returns pixel v's connectivity key: 0 for background, equal for
// neighbours that are joined.
func (g *Grid) Key(v int) uint64 {
	f := g.r.Value(v)
	if !g.rule.Foreground(f) {
		return 0
	}
	if g.rule.Mode != imagegraph.Multilabel {
		return 1
	}
	return g.src.key(v)
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

// Materialize builds the grid's CSR graph, background pixels as isolated
// vertices.
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
