package gridcc

import (
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// swappedRows serves the runs of a volume of integer samples with x and y
// swapped in every plane (runs.LabelRunsSwapped): row x + z*width holds
// the runs of equal nonzero keys along y at column x of plane z.
type swappedRows[T integer, K grid.GridKey] struct {
	s             []T
	width, height int
}

// AppendRuns appends the runs of a swapped row (grid.RunRows).
func (s swappedRows[T, K]) AppendRuns(row int, dst []grid.KeyRun[K]) []grid.KeyRun[K] {
	w, h := s.width, s.height
	z, x := row/w, row%w
	col := s.s[z*w*h+x : z*w*h+x+(h-1)*w+1]
	start, v := 0, col[0]
	for y := 1; y < h; y++ {
		if c := col[y*w]; c != v {
			if v != 0 {
				dst = append(dst, grid.KeyRun[K]{Start: int32(start), End: int32(y), Key: K(v)})
			}
			start, v = y, c
		}
	}
	if v != 0 {
		dst = append(dst, grid.KeyRun[K]{Start: int32(start), End: int32(h), Key: K(v)})
	}
	return dst
}

// swappedRuns returns the swapped rows of a volume of height rows a plane
// as runs of 32-bit keys, or for 64-bit samples of 64-bit keys (the other
// is nil), when its runs along y are much longer than along x; else nil,
// nil.
func (s *intRows[T]) swappedRuns(height, depth int) (grid.RunRows[uint32], grid.RunRows[uint64]) {
	if !runsAlongY(s.s, s.width, height, depth) {
		return nil, nil
	}
	if unsafe.Sizeof(T(0)) == 8 {
		return nil, swappedRows[T, uint64]{s.s, s.width, height}
	}
	return swappedRows[T, uint32]{s.s, s.width, height}, nil
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
	samples := max(1, min(depth, (1<<20)/plane))
	alongX, alongY := 0, 0
	for k := range samples {
		z := (2*k + 1) * depth / (2 * samples)
		p := s[z*plane : (z+1)*plane]
		for y := range height {
			row := p[y*width : (y+1)*width]
			for x := 1; x < width; x++ {
				alongX += int(b2u(row[x] != row[x-1]))
			}
			if y > 0 {
				above := p[(y-1)*width : y*width]
				for x, v := range row {
					alongY += int(b2u(v != above[x]))
				}
			}
		}
	}
	return alongX > swapFactor*alongY+width
}
