package grid_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl/grid"
)

// sliceKeys serves keys from a whole array, x fastest.
type sliceKeys struct {
	width int
	keys  []uint32
}

func (s sliceKeys) Keys(row int, dst []uint32) {
	copy(dst, s.keys[row*s.width:(row+1)*s.width])
}

// bfsGridLabels is the oracle: breadth-first search over the full stencil
// (every neighbour, not only backward ones), numbering components in order
// of their first pixel.
func bfsGridLabels(shape grid.GridShape, conn int, keys []uint32) ([]uint32, int) {
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

// awkwardShapes are the sizes the grid tests run on.
func awkwardShapes(depth3D bool) []grid.GridShape {
	if !depth3D {
		return []grid.GridShape{{1, 1, 1}, {1, 17, 1}, {17, 1, 1}, {2, 2, 1}, {13, 7, 1}, {31, 29, 1}, {64, 3, 1}, {5, 97, 1}}
	}
	return []grid.GridShape{{1, 1, 2}, {1, 1, 23}, {23, 1, 2}, {1, 19, 3}, {7, 5, 11}, {13, 11, 7}, {3, 2, 40}}
}

// gridPatterns fills keys for a shape in several ways.
func gridPatterns(shape grid.GridShape, rng *rand.Rand) map[string][]uint32 {
	n := shape.Len()
	out := map[string][]uint32{}
	fill := func(name string, f func(i, x, y, z int) uint32) {
		k := make([]uint32, n)
		for i := range k {
			x, y, z := i%shape.Width, i/shape.Width%shape.Height, i/(shape.Width*shape.Height)
			k[i] = f(i, x, y, z)
		}
		out[name] = k
	}
	fill("all", func(int, int, int, int) uint32 { return 1 })
	fill("none", func(int, int, int, int) uint32 { return 0 })
	fill("checker", func(_, x, y, z int) uint32 { return uint32((x + y + z + 1) % 2) })
	fill("multichecker", func(_, x, y, z int) uint32 { return uint32((x+y+z)%2 + 1) })
	fill("stripes", func(_, x, y, z int) uint32 { return uint32((x * 7) % 3) })
	for _, p := range []float64{0.3, 0.6, 0.9} {
		fill("random", func(int, int, int, int) uint32 {
			if rng.Float64() < p {
				return 1
			}
			return 0
		})
		out[string(rune('a'+int(p*10)))+"random"] = out["random"]
	}
	fill("labels", func(int, int, int, int) uint32 { return uint32(rng.IntN(3)) })
	return out
}

func TestLabelGridMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range awkwardShapes(is3D) {
			for name, keys := range gridPatterns(shape, rng) {
				for _, conn := range conns {
					want, wantN := bfsGridLabels(shape, conn, keys)
					for _, threads := range []int{1, 2, 3, 8} {
						got := make([]uint32, len(keys))
						n, err := grid.LabelGrid(shape, conn, grid.KeyRows[uint32](sliceKeys{shape.Width, keys}), got, threads)
						if err != nil {
							t.Fatal(err)
						}
						if n != wantN || !slices.Equal(got, want) {
							t.Fatalf("%v %s conn %d threads %d: %d components, want %d\n got %v\nwant %v",
								shape, name, conn, threads, n, wantN, got, want)
						}
					}
				}
			}
		}
	}
}

func TestLabelGridLargeRandomAllThreadCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		shape grid.GridShape
		conn  int
	}{
		{grid.GridShape{257, 311, 1}, 8},
		{grid.GridShape{300, 200, 1}, 4},
		{grid.GridShape{4097, 3, 1}, 8},
		{grid.GridShape{3, 4097, 1}, 4},
		{grid.GridShape{33, 29, 31}, 26},
		{grid.GridShape{40, 30, 20}, 6},
		{grid.GridShape{17, 19, 64}, 18},
	}
	for _, c := range cases {
		for _, p := range []float64{0.3, 0.5, 0.6} {
			keys := make([]uint32, c.shape.Len())
			for i := range keys {
				if rng.Float64() < p {
					keys[i] = 1 + uint32(rng.IntN(2))
				}
			}
			want, wantN := bfsGridLabels(c.shape, c.conn, keys)
			for threads := 1; threads <= 8; threads++ {
				got := make([]uint32, len(keys))
				n, err := grid.LabelGrid[uint32](c.shape, c.conn, sliceKeys{c.shape.Width, keys}, got, threads)
				if err != nil {
					t.Fatal(err)
				}
				if n != wantN || !slices.Equal(got, want) {
					t.Fatalf("%v conn %d p %.1f threads %d: %d components, want %d", c.shape, c.conn, p, threads, n, wantN)
				}
			}
		}
	}
}

func TestLabelGridErrors(t *testing.T) {
	keys := sliceKeys{2, make([]uint32, 4)}
	for _, c := range []struct {
		shape grid.GridShape
		conn  int
		n     int
	}{
		{grid.GridShape{2, 2, 1}, 6, 4},
		{grid.GridShape{2, 1, 2}, 8, 4},
		{grid.GridShape{0, 2, 1}, 4, 0},
		{grid.GridShape{2, 2, 1}, 4, 3},
	} {
		if _, err := grid.LabelGrid[uint32](c.shape, c.conn, keys, make([]uint32, c.n), 1); err == nil {
			t.Errorf("%v conn %d with %d labels: no error", c.shape, c.conn, c.n)
		}
	}
}
