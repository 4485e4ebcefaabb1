package runs

import (
	"slices"
	"testing"
)

// TestPathChooser checks the planes that pathChooser walks for a given
// filter outcome of each walked plane: walking goes on while the filter
// lets at most one run in walkRatio through, else maskPlanes planes are
// linked from masks before the next look.
func TestPathChooser(t *testing.T) {
	const planes = 3 * (maskPlanes + 1)
	const runs = 8 * walkRatio
	span := func(lo, hi int) []int {
		var s []int
		for p := lo; p < hi; p++ {
			s = append(s, p)
		}
		return s
	}
	for _, c := range []struct {
		name   string
		linked func(plane int) int // of runs
		walked []int
	}{
		{"filter spares all", func(int) int { return 0 }, span(0, planes)},
		{"filter at the ratio", func(int) int { return runs / walkRatio }, span(0, planes)},
		{"filter above the ratio", func(int) int { return runs/walkRatio + 1 }, []int{0, maskPlanes + 1, 2 * (maskPlanes + 1)}},
		{"cells after fragments", func(p int) int { return runs * (1 - min(p, 1)) }, append([]int{0}, span(maskPlanes+1, planes)...)},
		{"fragments after cells", func(p int) int { return runs * min(p/5, 1) }, []int{0, 1, 2, 3, 4, 5, maskPlanes + 6, 2*maskPlanes + 7}},
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
