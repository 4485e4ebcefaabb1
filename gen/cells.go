package gen

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/cclabel/cclabel/imagegraph"
)

// CellsRaster returns a dense segmentation shaped like a connectomics
// label map.
//
// It is a width x height x depth uint32 raster (depth 1 for an image) split
// into about cells cells, each holding its own random nonzero value,
// distinct from every other cell's. The cells are the Voronoi cells of seeds
// on a jittered grid (one seed at a random place in every grid box; a pixel
// takes the nearest seed of the 3x3 or 3x3x3 boxes around its own). About
// half of the boundaries between two cells, chosen by a hash of the pair,
// are a background (0) wall one pixel thick, on the side of the cell that
// comes first in memory order. The same seed gives the same raster on every
// machine and thread count.
func CellsRaster(width, height, depth, cells int, seed uint64) (*imagegraph.Raster, error) {
	return cellsRaster(width, height, depth, cells, seed, nil)
}

// cellsRaster is [CellsRaster] telling p (which may be nil) its two passes.
func cellsRaster(width, height, depth, cells int, seed uint64, p *progress) (*imagegraph.Raster, error) {
	n, err := imagegraph.PixelCount(width, height, depth)
	if err != nil {
		return nil, fmt.Errorf("gen: %w", err)
	}
	if cells < 1 || cells > n {
		return nil, fmt.Errorf("gen: %d cells for %d pixels: want 1 to %d", cells, n, n)
	}
	c := newCellGrid(width, height, depth, cells, seed)
	data := make([]uint32, n)
	units, unit := depth, width*height // planes in 3D, rows in 2D
	if depth == 1 {
		units, unit = height, width
	}
	// The first layer of every worker's range, as cell numbers, for the
	// walls of the layer before it, which another worker converts.
	workers := min(runtime.GOMAXPROCS(0), units)
	next := make([][]uint32, workers)
	parallelUnits(units, workers, func(t, lo, hi int) {
		for u := lo; u < hi; u++ {
			c.fillUnit(data, u)
			p.add(unit)
		}
		if hi < units {
			next[t] = make([]uint32, unit)
			c.fillUnitInto(next[t], hi)
		}
	})
	parallelUnits(units, workers, func(t, lo, hi int) {
		for u := lo; u < hi; u++ {
			var after []uint32
			switch {
			case u+1 == hi && hi < units:
				after = next[t]
			case u+1 < units:
				after = data[(u+1)*unit : (u+2)*unit]
			}
			c.paintUnit(data[u*unit:(u+1)*unit], after)
			p.add(unit)
		}
	})
	return imagegraph.NewRaster(width, height, depth, data)
}

// parallelUnits runs body on workers contiguous ranges of [0, units).
func parallelUnits(units, workers int, body func(t, lo, hi int)) {
	var wg sync.WaitGroup
	for t := range workers {
		wg.Go(func() { body(t, units*t/workers, units*(t+1)/workers) })
	}
	wg.Wait()
}

// cellGrid is the jittered grid of seeds of [CellsRaster].
type cellGrid struct {
	w, h, d    int
	gx, gy, gz int     // boxes along each axis
	sx, sy, sz []int32 // seed of each box, index i + gx*(j + gy*k)
	seed       uint64
}

func newCellGrid(w, h, d, cells int, seed uint64) *cellGrid {
	n := float64(w) * float64(h) * float64(d)
	var s float64
	if d == 1 {
		s = math.Sqrt(n / float64(cells))
	} else {
		s = math.Cbrt(n / float64(cells))
	}
	boxes := func(side int) int { return min(max(1, int(math.Round(float64(side)/s))), side) }
	c := &cellGrid{w: w, h: h, d: d, gx: boxes(w), gy: boxes(h), gz: boxes(d), seed: seed}
	total := c.gx * c.gy * c.gz
	c.sx, c.sy, c.sz = make([]int32, total), make([]int32, total), make([]int32, total)
	for k := range c.gz {
		for j := range c.gy {
			for i := range c.gx {
				b := i + c.gx*(j+c.gy*k)
				r := mix64(seed ^ mix64(uint64(b)+0x9e3779b97f4a7c15))
				c.sx[b] = int32(jitter(i, c.gx, w, r))
				c.sy[b] = int32(jitter(j, c.gy, h, r>>21))
				c.sz[b] = int32(jitter(k, c.gz, d, r>>42))
			}
		}
	}
	return c
}

// jitter places a coordinate at random (by the low 21 bits of r) inside
// box i of boxes along a side.
func jitter(i, boxes, side int, r uint64) int {
	lo, hi := i*side/boxes, (i+1)*side/boxes
	return lo + int((r&(1<<21-1))*uint64(hi-lo)>>21)
}

// box returns the box holding coordinate x of a side split into boxes.
func box(x, boxes, side int) int { return x * boxes / side }

// candidate is a seed near a row: its box, x and squared distance to the
// row in y and z.
type candidate struct {
	box int32
	x   int32
	c   int64
}

// fillUnit writes the cell numbers (box index + 1) of layer u (a plane, or
// a row of an image) into data.
func (c *cellGrid) fillUnit(data []uint32, u int) {
	if c.d == 1 {
		c.fillRow(data[u*c.w:(u+1)*c.w], u, 0)
		return
	}
	plane := c.w * c.h
	for y := range c.h {
		c.fillRow(data[u*plane+y*c.w:u*plane+(y+1)*c.w], y, u)
	}
}

// fillUnitInto writes layer u's cell numbers into dst (one layer).
func (c *cellGrid) fillUnitInto(dst []uint32, u int) {
	if c.d == 1 {
		c.fillRow(dst, u, 0)
		return
	}
	for y := range c.h {
		c.fillRow(dst[y*c.w:(y+1)*c.w], y, u)
	}
}

// fillRow writes the cell numbers of row y of plane z. Along a row the
// squared distance to a seed is (x-sx)^2 + c, c its distance in y and z;
// for the seeds of the boxes around each box along x, it finds the nearest
// seed at the box's first pixel, computes the first x where another seed
// gets strictly nearer, fills the run up to there, and goes on from there.
func (c *cellGrid) fillRow(row []uint32, y, z int) {
	j, k := box(y, c.gy, c.h), box(z, c.gz, c.d)
	cand := make([]candidate, 0, 27)
	for i := range c.gx {
		cand = cand[:0]
		for kk := max(k-1, 0); kk <= min(k+1, c.gz-1); kk++ {
			for jj := max(j-1, 0); jj <= min(j+1, c.gy-1); jj++ {
				for ii := max(i-1, 0); ii <= min(i+1, c.gx-1); ii++ {
					b := ii + c.gx*(jj+c.gy*kk)
					dy, dz := int64(y)-int64(c.sy[b]), int64(z)-int64(c.sz[b])
					cand = append(cand, candidate{int32(b), c.sx[b], dy*dy + dz*dz})
				}
			}
		}
		end := int64((i + 1) * c.w / c.gx)
		for x := int64(i * c.w / c.gx); x < end; {
			near, best := cand[0], int64(math.MaxInt64)
			for _, s := range cand {
				dx := x - int64(s.x)
				if dist := dx*dx + s.c; dist < best {
					best, near = dist, s
				}
			}
			// Seed s is nearer than near at x when a*x > b.
			stop := end
			for _, s := range cand {
				a := 2 * (int64(s.x) - int64(near.x))
				if a <= 0 {
					continue
				}
				b := (int64(s.x)-int64(near.x))*(int64(s.x)+int64(near.x)) + s.c - near.c
				at := int64(math.Floor(float64(b)/float64(a))) + 1
				stop = min(stop, max(at, x+1))
			}
			v := uint32(near.box) + 1
			for ; x < stop; x++ {
				row[x] = v
			}
		}
	}
}

// paintUnit turns a layer of cell numbers into values: a pixel is 0 when a
// neighbour after it (x+1, y+1, or in after, the next layer, if any) lies
// in another cell and the pair's boundary is a wall, else its cell's value.
// Pixels are taken in order, so the neighbours read still hold numbers.
func (c *cellGrid) paintUnit(layer, after []uint32) {
	w := c.w
	rows := len(layer) / w
	var last, value uint32
	for y := range rows {
		for x := range w {
			i := y*w + x
			a := layer[i]
			wall := x+1 < w && c.wall(a, layer[i+1]) ||
				y+1 < rows && c.wall(a, layer[i+w]) ||
				after != nil && c.wall(a, after[i])
			if a != last {
				last, value = a, c.value(a)
			}
			layer[i] = value
			if wall {
				layer[i] = 0
			}
		}
	}
}

// wall reports whether the boundary between cells a and b (numbers) is a
// background wall.
func (c *cellGrid) wall(a, b uint32) bool {
	if a == b {
		return false
	}
	return c.wallSlow(a, b)
}

// wallSlow is wall for two different cells.
func (c *cellGrid) wallSlow(a, b uint32) bool {
	lo, hi := min(a, b), max(a, b)
	return mix64(c.seed^uint64(lo)<<32^uint64(hi))&1 == 0
}

// value returns the sample value of cell number a: a bijection of the cell
// numbers onto uint32, so distinct cells get distinct values; the one cell
// that would get 0 takes the value of a number no cell has.
func (c *cellGrid) value(a uint32) uint32 {
	if v := permute32(a, c.seed); v != 0 {
		return v
	}
	return permute32(uint32(len(c.sx)+1), c.seed)
}

// permute32 is a bijection of uint32 chosen by seed (each step is
// invertible).
func permute32(x uint32, seed uint64) uint32 {
	x ^= uint32(seed)
	x *= 0x7feb352d
	x ^= x >> 15
	x += uint32(seed >> 32)
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// mix64 is the splitmix64 finalizer.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
