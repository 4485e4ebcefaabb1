package cuda

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// gridPatterns fills a w x h x d grid with structured foreground that
// stresses tile borders and block corners: all foreground, checkerboards
// (every pixel its own component at 4 and 6, one at 8 and 26), thin
// stripes, diagonal lines and sparse dots.
func gridPatterns(w, h, d int) map[string][]uint8 {
	n := w * h * d
	out := map[string][]uint8{}
	pattern := func(name string, f func(x, y, z int) bool) {
		v := make([]uint8, n)
		for i := range v {
			x, y, z := i%w, (i/w)%h, i/(w*h)
			if f(x, y, z) {
				v[i] = 1
			}
		}
		out[name] = v
	}
	pattern("all", func(x, y, z int) bool { return true })
	pattern("checker", func(x, y, z int) bool { return (x+y+z)%2 == 0 })
	pattern("checker2", func(x, y, z int) bool { return (x/2+y/2+z/2)%2 == 0 })
	pattern("vstripes", func(x, y, z int) bool { return x%3 == 0 })
	pattern("hstripes", func(x, y, z int) bool { return y%2 == 1 })
	pattern("diagonal", func(x, y, z int) bool { return (x+y+z)%5 == 0 })
	pattern("antidiagonal", func(x, y, z int) bool { return (x-y+z+1000*w)%7 == 0 })
	pattern("dots", func(x, y, z int) bool { return x%3 == 1 && y%3 == 1 && z%2 == 0 })
	return out
}

func TestLabelGridPatternsMatchCPU(t *testing.T) {
	c := gpuContext(t)
	shapes := [][3]int{{1, 1, 1}, {2, 2, 1}, {3, 1, 1}, {1, 5, 1}, {4097, 3, 1}, {3, 4097, 1}, {65, 65, 1}, {127, 131, 1},
		{129, 33, 1}, {1, 1, 2}, {2, 2, 2}, {3, 3, 3}, {1, 1, 37}, {65, 17, 17}, {67, 35, 19}, {2, 129, 33}, {129, 17, 9}}
	for _, s := range shapes {
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 18, 26}
		}
		for name, data := range gridPatterns(s[0], s[1], s[2]) {
			r, err := imagegraph.NewRaster(s[0], s[1], s[2], data)
			if err != nil {
				t.Fatal(err)
			}
			// The same pattern as a label map: runs of 1-3 values along
			// each axis, so equal and unequal neighbours meet at every offset.
			values := make([]uint8, len(data))
			for i, on := range data {
				x, y, z := i%s[0], (i/s[0])%s[1], i/(s[0]*s[1])
				values[i] = on * uint8(1+(x/3+y/2+z)%3)
			}
			mr, err := imagegraph.NewRaster(s[0], s[1], s[2], values)
			if err != nil {
				t.Fatal(err)
			}
			for _, conn := range conns {
				binary := imagegraph.Rule{Mode: imagegraph.Binary}
				checkGridOnGPU(t, c, r, conn, binary, fmt.Sprintf("%v %s", s, name))
				checkGridOnGPU(t, c, mr, conn, imagegraph.Rule{Mode: imagegraph.Multilabel}, fmt.Sprintf("%v %s multilabel", s, name))
				if conn == 8 || conn == 18 || conn == 26 {
					checkTilesOnGPU(t, c, r, conn, binary, fmt.Sprintf("tiles %v %s", s, name))
				}
			}
		}
	}
	// Random sparse to dense foreground on shapes that cut tiles unevenly.
	for si, s := range [][3]int{{523, 389, 1}, {8191, 7, 1}, {7, 2053, 1}, {131, 67, 45}, {257, 3, 29}} {
		for _, p := range []float64{0.05, 0.3, 0.5, 0.7, 0.95} {
			r, err := gen.RandomRaster(s[0], s[1], s[2], p, uint64(100+si))
			if err != nil {
				t.Fatal(err)
			}
			conn := 8
			if s[2] > 1 {
				conn = 26
			}
			checkGridOnGPU(t, c, r, conn, imagegraph.Rule{Mode: imagegraph.Binary}, fmt.Sprintf("%v p=%.2f", s, p))
			face := 4
			if s[2] > 1 {
				face = 6
			}
			checkGridOnGPU(t, c, r, face, imagegraph.Rule{Mode: imagegraph.Multilabel}, fmt.Sprintf("%v p=%.2f", s, p))
			checkTilesOnGPU(t, c, r, conn, imagegraph.Rule{Mode: imagegraph.Binary}, fmt.Sprintf("tiles %v p=%.2f", s, p))
		}
	}
}

// checkGridOnGPU compares the GPU's labels of r with the serial CPU's.
func checkGridOnGPU(t *testing.T, c *Context, r *imagegraph.Raster, conn int, rule imagegraph.Rule, what string) {
	t.Helper()
	want, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, n, _, err := c.LabelGrid(r, conn, rule)
	if err != nil {
		t.Fatal(err)
	}
	if n != want.Count || !slices.Equal(got, want.Data) {
		i := 0
		for i < len(got) && got[i] == want.Data[i] {
			i++
		}
		lo, hi := max(0, i-3), min(len(got), i+4)
		t.Fatalf("%s c%d: GPU %d components, CPU %d; first difference at %d: GPU %v, CPU %v from %d",
			what, conn, n, want.Count, i, got[lo:hi], want.Data[lo:hi], lo)
	}
}

// TestLabelGridThresholdRounding checks values that land exactly on the
// threshold after scaling: 3*0.1 - 0.30000000000000004 is 0 when the
// product is rounded first (as the CPU computes it) and -2.8e-17 with a
// fused multiply-add.
func TestLabelGridThresholdRounding(t *testing.T) {
	c := gpuContext(t)
	for _, s := range [][3]int{{67, 45, 1}, {35, 19, 11}} {
		data := make([]uint8, s[0]*s[1]*s[2])
		for i := range data {
			data[i] = uint8(i % 7)
		}
		r, err := imagegraph.NewRaster(s[0], s[1], s[2], data)
		if err != nil {
			t.Fatal(err)
		}
		rule := imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 0, Slope: 0.1, Inter: -float64(float64(3) * 0.1)}
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 26}
		}
		for _, conn := range conns {
			for _, invert := range []bool{false, true} {
				rule.Invert = invert
				checkGridOnGPU(t, c, r, conn, rule, fmt.Sprintf("%v rounding invert=%v", s, invert))
			}
		}
	}
}
