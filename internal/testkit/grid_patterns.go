package testkit

import (
	"fmt"
	"math/rand/v2"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// sides returns the shape of width x height x depth pixels.
func sides(width, height, depth int) grid.GridShape {
	return grid.GridShape{Width: width, Height: height, Depth: depth}
}

// AwkwardShapes are the sizes the grid tests run on.
func AwkwardShapes(depth3D bool) []grid.GridShape {
	if !depth3D {
		return []grid.GridShape{sides(1, 1, 1), sides(1, 17, 1), sides(17, 1, 1), sides(2, 2, 1),
			sides(13, 7, 1), sides(31, 29, 1), sides(64, 3, 1), sides(5, 97, 1)}
	}
	return []grid.GridShape{sides(1, 1, 2), sides(1, 1, 23), sides(23, 1, 2), sides(1, 19, 3),
		sides(7, 5, 11), sides(13, 11, 7), sides(3, 2, 40)}
}

// Patterns fills keys for a shape in several ways.
func Patterns(shape grid.GridShape, rng *rand.Rand) map[string][]uint32 {
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

// ModeShapes are the awkward sizes of the run labelers' tests: single
// pixels, single rows and columns, primes, word edges, and thin volumes.
func ModeShapes(is3D bool) []grid.GridShape {
	if !is3D {
		return []grid.GridShape{sides(1, 1, 1), sides(1, 37, 1), sides(37, 1, 1), sides(2, 2, 1),
			sides(13, 7, 1), sides(63, 5, 1), sides(64, 9, 1), sides(65, 8, 1), sides(128, 4, 1),
			sides(129, 17, 1), sides(257, 311, 1), sides(4097, 3, 1), sides(3, 4097, 1)}
	}
	return []grid.GridShape{sides(1, 1, 2), sides(1, 1, 37), sides(37, 1, 2), sides(1, 19, 3),
		sides(2, 129, 33), sides(13, 11, 7), sides(7, 5, 11), sides(64, 3, 5), sides(65, 4, 8),
		sides(130, 7, 5), sides(3, 2, 41), sides(9, 1, 12), sides(31, 17, 13)}
}

// ModePatterns are Patterns plus random masks of several densities
// and few or many distinct values.
func ModePatterns(shape grid.GridShape, rng *rand.Rand) map[string][]uint32 {
	out := Patterns(shape, rng)
	n := shape.Len()
	for _, p := range []float64{0.05, 0.2, 0.4, 0.6, 0.8, 0.95} {
		k := make([]uint32, n)
		for i := range k {
			if rng.Float64() < p {
				k[i] = 1
			}
		}
		out[fmt.Sprintf("p%.2f", p)] = k
	}
	few, many := make([]uint32, n), make([]uint32, n)
	for i := range few {
		if rng.Float64() < 0.8 {
			few[i] = 1 + uint32(rng.IntN(2))
		}
		many[i] = uint32(rng.IntN(1 << 20))
	}
	out["few"], out["many"] = few, many
	out["cells"] = Cells(shape, 5, 0, rng)
	out["fewcells"] = Cells(shape, 4, 3, rng)
	w, h := shape.Width, shape.Height
	fill := func(name string, f func(x, y, z int) uint32) {
		k := make([]uint32, n)
		for i := range k {
			k[i] = f(i%w, i/w%h, i/(w*h))
		}
		out[name] = k
	}
	fill("rowstripes", func(_, y, z int) uint32 { return uint32((y + z) % 2) })
	fill("colstripes", func(x, _, _ int) uint32 { return uint32(x % 2) })
	fill("diagonals", func(x, y, z int) uint32 { return uint32(min(1, (x+2*y+3*z)%4)) })
	fill("blocks", func(x, y, z int) uint32 { return uint32((x/3+y/2+z/2)%3) * 7 })
	return out
}

// ModeThreads are the thread counts every run labeler is checked with.
var ModeThreads = []int{1, 2, 3, 4, 7}

// Cells returns a dense segmentation of shape, cells of random values. They
// are the Voronoi cells of one random seed per box of side pixels (the
// nearest seed among the boxes around a pixel's own, Chebyshev distance),
// each cell valued at random among values (0: distinct values), and a
// background wall where a pixel's right neighbour lies in another cell and
// that pair's hash says so (about half the boundaries), like (not pixel for
// pixel) "cclabel gen --kind cells". Its long runs of varied lengths and
// equal-valued touching cells reach the run labelers' paths for dense label
// maps.
func Cells(shape grid.GridShape, side, values int, rng *rand.Rand) []uint32 {
	w, h, d := shape.Width, shape.Height, shape.Depth
	bx, by, bz := (w+side-1)/side, (h+side-1)/side, (d+side-1)/side
	seeds := make([][3]int, bx*by*bz)
	value := make([]uint32, len(seeds))
	for i := range seeds {
		x, y, z := i%bx, i/bx%by, i/(bx*by)
		seeds[i] = [3]int{x*side + rng.IntN(side), y*side + rng.IntN(side), z*side + rng.IntN(side)}
		value[i] = 1 + uint32(rng.IntN(1<<30))
		if values > 0 {
			value[i] = 1 + uint32(rng.IntN(values))
		}
	}
	cell := func(x, y, z int) int {
		best, near := 1<<30, 0
		for k := max(z/side-1, 0); k <= min(z/side+1, bz-1); k++ {
			for j := max(y/side-1, 0); j <= min(y/side+1, by-1); j++ {
				for i := max(x/side-1, 0); i <= min(x/side+1, bx-1); i++ {
					b := i + bx*(j+by*k)
					s := seeds[b]
					if dist := max(abs(x-s[0]), abs(y-s[1]), abs(z-s[2])); dist < best {
						best, near = dist, b
					}
				}
			}
		}
		return near
	}
	out := make([]uint32, shape.Len())
	for z := range d {
		for y := range h {
			for x := range w {
				c := cell(x, y, z)
				i := x + w*(y+h*z)
				out[i] = value[c]
				if x+1 < w {
					if n := cell(x+1, y, z); n != c && (c*7919+n*104729)%2 == 0 {
						out[i] = 0
					}
				}
			}
		}
	}
	return out
}
