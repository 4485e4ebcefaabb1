package gridcc

import (
	mathbits "math/bits"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// swappedRows serves the runs of a volume of integer samples with x and y
// swapped in every plane (runs.LabelRunsSwapped): row x + z*width holds
// the runs of equal nonzero keys along y at column x of plane z. It finds
// the runs of all the columns of a plane at once, row by row, and keeps
// those of the two planes it read last; one goroutine may use it.
type swappedRows[T integer, K grid.GridKey] struct {
	s             []T
	width, height int
	planes        [2]columnRuns[T, K]
	last          int // the plane of planes read last
}

// newSwappedRows returns a reader of the swapped rows of s.
func newSwappedRows[T integer, K grid.GridKey](s []T, width, height int) *swappedRows[T, K] {
	r := &swappedRows[T, K]{s: s, width: width, height: height}
	r.planes[0].z, r.planes[1].z = -1, -1
	return r
}

// columnRuns holds the runs of every column of a plane: column x's are
// runs[start[x]:end[x]].
type columnRuns[T integer, K grid.GridKey] struct {
	z          int
	runs       []grid.KeyRun[K]
	start, end []int32
	masks      []uint64 // scratch: the columns where each row differs from the one before
}

// AppendRuns appends the runs of a swapped row (grid.RunRows).
func (s *swappedRows[T, K]) AppendRuns(row int, dst []grid.KeyRun[K]) []grid.KeyRun[K] {
	z, x := row/s.width, row%s.width
	c := &s.planes[s.last]
	if c.z != z {
		s.last ^= 1
		c = &s.planes[s.last]
		if c.z != z {
			plane := s.width * s.height
			c.fill(s.s[z*plane:(z+1)*plane], s.width, s.height)
			c.z = z
		}
	}
	return append(dst, c.runs[c.start[x]:c.end[x]]...)
}

// fill finds the runs along y of every column of plane p (height rows of
// width samples): where each row differs from the one before, a bit mask a
// row, then the runs of each column, counted first.
func (c *columnRuns[T, K]) fill(p []T, width, height int) {
	words := (width + 63) / 64
	c.masks = grow(c.masks, words*height)
	c.start, c.end = grow(c.start, width), grow(c.end, width)
	// A column holds a run where it starts, and one after each change.
	counts := c.end
	for x := range counts {
		counts[x] = 1
	}
	for y := 1; y < height; y++ {
		m := c.masks[y*words : (y+1)*words]
		row, above := p[y*width:(y+1)*width], p[(y-1)*width:y*width]
		k0 := 0
		if unsafe.Sizeof(row[0]) == 4 && width >= 64 && band.DiffMasks32(unsafe.Pointer(&row[0]), unsafe.Pointer(&above[0]), m[:width/64]) {
			k0 = width / 64
			for k, bits := range m[:k0] {
				for ; bits != 0; bits &= bits - 1 {
					counts[64*k+mathbits.TrailingZeros64(bits)]++
				}
			}
		}
		for k := k0; k < len(m); k++ {
			lo := 64 * k
			hi := min(lo+64, width)
			bits := diffMask(row[lo:hi], above[lo:hi])
			m[k] = bits
			for ; bits != 0; bits &= bits - 1 {
				counts[lo+mathbits.TrailingZeros64(bits)]++
			}
		}
	}
	n := int32(0)
	for x := range counts {
		c.start[x] = n
		n += counts[x]
	}
	c.runs = grow(c.runs, int(n))
	// end[x] is column x's next run; from[x] (reusing counts) the row its
	// run in progress starts at.
	copy(c.end, c.start)
	from := make([]int32, width)
	for y := 1; y < height; y++ {
		m := c.masks[y*words : (y+1)*words]
		above := p[(y-1)*width : y*width]
		for k, bits := range m {
			for ; bits != 0; bits &= bits - 1 {
				x := 64*k + mathbits.TrailingZeros64(bits)
				c.runs[c.end[x]] = grid.KeyRun[K]{Start: from[x], End: int32(y), Key: K(above[x])}
				c.end[x] += int32(b2u(above[x] != 0))
				from[x] = int32(y)
			}
		}
	}
	last := p[(height-1)*width : height*width]
	for x, v := range last {
		c.runs[c.end[x]] = grid.KeyRun[K]{Start: from[x], End: int32(height), Key: K(v)}
		c.end[x] += int32(b2u(v != 0))
	}
}

// grow returns s resized to n entries, reallocated only when too small.
func grow[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

// diffMask returns the bits of the entries (at most 64) of a that differ
// from those of b.
func diffMask[T integer](a, b []T) uint64 {
	b = b[:len(a)]
	var m uint64
	k := 0
	for ; k+4 <= len(a); k += 4 {
		c, d := a[k:k+4:k+4], b[k:k+4:k+4]
		m |= (b2u(c[0] != d[0]) | b2u(c[1] != d[1])<<1 | b2u(c[2] != d[2])<<2 | b2u(c[3] != d[3])<<3) << (k & 63)
	}
	for ; k < len(a); k++ {
		m |= b2u(a[k] != b[k]) << (k & 63)
	}
	return m
}

// swappedRuns returns the swapped rows of a volume of height rows a plane
// as runs of 32-bit keys, or for 64-bit samples of 64-bit keys (the other
// is nil), when its runs along y are much longer than along x; else nil,
// nil.
func (s *intRows[T]) swappedRuns(height, depth int) (func() grid.RunRows[uint32], func() grid.RunRows[uint64]) {
	if !runsAlongY(s.s, s.width, height, depth) {
		return nil, nil
	}
	if unsafe.Sizeof(T(0)) == 8 {
		return nil, func() grid.RunRows[uint64] { return newSwappedRows[T, uint64](s.s, s.width, height) }
	}
	return func() grid.RunRows[uint32] { return newSwappedRows[T, uint32](s.s, s.width, height) }, nil
}

// swapFactor is how many times more runs a volume's rows must hold along x
// than along y, in the planes runsAlongY samples, for LabelRunsSwapped to
// label it.
const swapFactor = 2

// runsAlongY reports whether the width x height planes of a volume of
// depth planes hold far fewer runs along y than along x: it counts the
// changes of value along both in a few planes.
func runsAlongY[T integer](s []T, width, height, depth int) bool {
	if depth < 2 || height < 2 {
		return false
	}
	plane := width * height
	// A sixteenth of the planes at most, and a million samples.
	samples := max(1, min(depth/16, (1<<20)/plane))
	masks := make([]uint64, width/64)
	alongX, alongY := 0, 0
	for k := range samples {
		z := (2*k + 1) * depth / (2 * samples)
		p := s[z*plane : (z+1)*plane]
		for y := range height {
			row := p[y*width : (y+1)*width]
			alongX += changes(row[1:], row[:width-1], masks)
			if y > 0 {
				alongY += changes(row, p[(y-1)*width:y*width], masks)
			}
		}
	}
	return alongX > swapFactor*alongY+width
}

// changes returns how many samples of a differ from those of b (at least
// as long as a):
// 4-byte samples 64 at a time by band.DiffMasks32 where it can (masks is
// its scratch), the rest one by one.
func changes[T integer](a, b []T, masks []uint64) int {
	b = b[:len(a)]
	n, x := 0, 0
	if m := masks[:min(len(masks), len(a)/64)]; len(m) > 0 && unsafe.Sizeof(a[0]) == 4 &&
		band.DiffMasks32(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), m) {
		for _, w := range m {
			n += mathbits.OnesCount64(w)
		}
		x = 64 * len(m)
	}
	for ; x < len(a); x++ {
		n += int(b2u(a[x] != b[x]))
	}
	return n
}
