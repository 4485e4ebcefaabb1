package runs

import (
	"slices"
	"testing"
)

// TestPathChooser checks the planes that pathChooser walks for a given
// filter outcome of each walked plane: walking goes on while the filter
// lets at most one run in walkRatio through, else maskPlanes planes are
// linked from masks before the next look, twice as many after each look
// that fails again, up to maxMaskPlanes.
func TestPathChooser(t *testing.T) {
	const planes = 3*(maskPlanes+1) + 2*(maxMaskPlanes+1)
	const runs = 8 * walkRatio
	span := func(lo, hi int) []int {
		var s []int
		for p := lo; p < hi; p++ {
			s = append(s, p)
		}
		return s
	}
	// looks returns the walked planes from first on when each look fails
	// and the planes linked from masks after each are those of gaps.
	looks := func(first int, gaps ...int) []int {
		s := []int{first}
		for _, g := range gaps {
			if p := s[len(s)-1] + g + 1; p < planes {
				s = append(s, p)
			}
		}
		return s
	}
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	for _, c := range []struct {
		name   string
		linked func(plane int) int // of runs
		walked []int
	}{
		{"filter spares all", func(int) int { return 0 }, span(0, planes)},
		{"filter at the ratio", func(int) int { return runs / walkRatio }, span(0, planes)},
		{"filter above the ratio", func(int) int { return runs/walkRatio + 1 }, looks(0, maskPlanes, 2*maskPlanes, 4*maskPlanes, maxMaskPlanes, maxMaskPlanes)},
		{"cells after fragments", func(p int) int { return runs * (1 - min(p, 1)) }, append([]int{0}, span(maskPlanes+1, planes)...)},
		{"fragments after cells", func(p int) int { return runs * min(p/5, 1) }, append(span(0, 5), looks(5, maskPlanes, 2*maskPlanes, 4*maskPlanes, maxMaskPlanes)...)},
		{"fragments, cells, fragments", func(p int) int { return runs * b2i(p < 1 || p > 3*maskPlanes+2) }, append(append([]int{0, maskPlanes + 1}, span(maskPlanes+2, 3*maskPlanes+3)...), looks(3*maskPlanes+3, maskPlanes, 2*maskPlanes, maxMaskPlanes)...)}, // a success resets the stretch
	} {
		t.Run(c.name, func(t *testing.T) {
			var ch pathChooser
			var walked []int
			for p := range planes {
				if ch.walk() {
					walked = append(walked, p)
					ch.record(runs, c.linked(p))
				}
			}
			if !slices.Equal(walked, c.walked) {
				t.Fatalf("walked %v, want %v", walked, c.walked)
			}
		})
	}
}
