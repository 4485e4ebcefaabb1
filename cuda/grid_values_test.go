package cuda

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// rasterOf returns a raster of the shape whose foreground (mask[i] != 0)
// holds value(i), in the sample type of value.
func rasterOf[T uint8 | uint16 | int16 | uint32 | int32](t *testing.T, s [3]int, mask []uint8, value func(i int) T) *imagegraph.Raster {
	t.Helper()
	data := make([]T, len(mask))
	for i, m := range mask {
		if m != 0 {
			data[i] = value(i)
		}
	}
	r, err := imagegraph.NewRaster(s[0], s[1], s[2], data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkPath labels r as checkGridOnGPU does and checks which kernels ran:
// grid_values first (at 8, 18 and 26), then the block kernels when blocks is
// set, else the run kernels for a volume and the tile kernels for an image
// (the value-block kernels only when asked).
func checkPath(t *testing.T, c *Context, r *imagegraph.Raster, conn int, blocks bool, what string) {
	t.Helper()
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	checkGridOnGPU(t, c, r, conn, rule, what)
	c.PerKernel = true
	_, _, tm, err := c.LabelGrid(r, conn, rule)
	c.PerKernel = false
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range tm.Kernels {
		names = append(names, k.Name)
	}
	list := strings.Join(names, " ")
	// Volumes, and images whose runs join few others, take the run
	// kernels unless one value sends them to the block kernels; the values
	// are checked at 8, 18 and 26 by grid_values, or on the run kernels'
	// way by their first launch, runs_count, for samples wider than a
	// byte.
	volume := r.Depth > 1
	runFamily := volume || runPairs(r, rule, conn) < runPairsMax
	checked := conn == 8 || conn == 18 || conn == 26
	fused := checked && runFamily && r.Kind.Size() > 1
	if got := slices.Contains(names, "grid_values_"+gridKernelSuffix[r.Kind]); got != (checked && !fused) {
		t.Errorf("%s c%d: grid_values ran: %v, want %v (%s)", what, conn, got, checked && !fused, list)
	}
	countFirst := len(names) > 1 && names[0] == "zero_u32" && names[1] == "runs_count_"+gridKernelSuffix[r.Kind]
	if countFirst != fused {
		t.Errorf("%s c%d: values checked by runs_count: %v, want %v (%s)", what, conn, countFirst, fused, list)
	}
	ran := func(prefix string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, prefix) })
	}
	if got := ran("blocks_local"); got != blocks {
		t.Errorf("%s c%d: block kernels ran: %v, want %v (%s)", what, conn, got, blocks, list)
	}
	if got := ran("runs_link"); got != (!blocks && runFamily) {
		t.Errorf("%s c%d: run kernels ran: %v, want %v (%s)", what, conn, got, !blocks && runFamily, list)
	}
	if got := ran("tiles_local"); got != (!blocks && !runFamily) {
		t.Errorf("%s c%d: tile kernels ran: %v, want %v (%s)", what, conn, got, !blocks && !runFamily, list)
	}
	if ran("vblocks_local") {
		t.Errorf("%s c%d: value-block kernels ran (%s)", what, conn, list)
	}
	if tm.Kernel <= 0 {
		t.Errorf("%s c%d: kernel time %v", what, conn, tm.Kernel)
	}
}

// TestLabelGridSingleValueMatchesCPU labels multilabel rasters whose
// nonzero samples share one value (then the binary rule's block kernels
// label them at 8, 18 and 26) and rasters of two values (the tile kernels),
// in every integer sample type, and compares with the CPU.
func TestLabelGridSingleValueMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	shapes := [][3]int{{1, 1, 1}, {2, 1, 1}, {17, 5, 1}, {257, 311, 1}, {4097, 3, 1}, {1, 1, 7}, {2, 2, 2}, {13, 11, 7}, {65, 9, 9}, {129, 65, 40}}
	several := 0
	for si, s := range shapes {
		n := s[0] * s[1] * s[2]
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 18, 26}
		}
		random, err := gen.RandomRaster(s[0], s[1], s[2], 0.5, uint64(si))
		if err != nil {
			t.Fatal(err)
		}
		masks := map[string][]uint8{
			"random":     random.Data.(imagegraph.Samples[uint8]),
			"background": make([]uint8, n),
			"all":        slices.Repeat([]uint8{1}, n),
			"first":      make([]uint8, n),
			"middle":     make([]uint8, n),
			"last":       make([]uint8, n),
		}
		masks["first"][0], masks["middle"][n/2], masks["last"][n-1] = 1, 1, 1
		for name, mask := range masks {
			fg := slices.Index(mask, 1)
			last := -1
			for i := range mask {
				if mask[i] != 0 {
					last = i
				}
			}
			type raster struct {
				what   string
				r      *imagegraph.Raster
				single bool
			}
			var rasters []raster
			add := func(what string, r *imagegraph.Raster, single bool) {
				rasters = append(rasters, raster{fmt.Sprintf("%v %s %v %s", s, name, r.Kind, what), r, single})
			}
			for _, v := range []uint8{1, 7, 255} {
				add(fmt.Sprint(v), rasterOf(t, s, mask, func(int) uint8 { return v }), true)
			}
			for _, v := range []uint16{1, 256, 65535} {
				add(fmt.Sprint(v), rasterOf(t, s, mask, func(int) uint16 { return v }), true)
			}
			for _, v := range []int16{1, -1, -7, math.MinInt16, math.MaxInt16} {
				add(fmt.Sprint(v), rasterOf(t, s, mask, func(int) int16 { return v }), true)
			}
			for _, v := range []uint32{1, 1 << 20, math.MaxUint32} {
				add(fmt.Sprint(v), rasterOf(t, s, mask, func(int) uint32 { return v }), true)
			}
			for _, v := range []int32{1, -1, -65599, math.MinInt32, math.MaxInt32} {
				add(fmt.Sprint(v), rasterOf(t, s, mask, func(int) int32 { return v }), true)
			}
			if fg >= 0 && fg != last { // two values: the second on the last foreground voxel, or by position
				add("1, 255 last", rasterOf(t, s, mask, func(i int) uint8 { return 1 + 254*uint8(i/last) }), false)
				add("7, 8 alternating", rasterOf(t, s, mask, func(i int) uint8 { return 7 + uint8(i%2) }), false)
				add("65535, 1 first", rasterOf(t, s, mask, func(i int) uint16 { return 65535 - 65534*uint16(min(1, i-fg)) }), false)
				add("-1, 1 last", rasterOf(t, s, mask, func(i int) int16 { return -1 + 2*int16(i/last) }), false)
				add("1, 0x80000001 last", rasterOf(t, s, mask, func(i int) uint32 { return 1 + 0x80000000*uint32(i/last) }), false)
				add("-1, min alternating", rasterOf(t, s, mask, func(i int) int32 { return -1 + (math.MinInt32+1)*int32(i%2) }), false)
			}
			for _, x := range rasters {
				if oneValue(x.r) != x.single && x.single { // a random mask may leave one value of two
					t.Fatalf("%s: not one value", x.what)
				}
				if !oneValue(x.r) {
					several++
				}
				for _, conn := range conns {
					blocks := (conn == 8 || conn == 18 || conn == 26) && oneValue(x.r)
					checkPath(t, c, x.r, conn, blocks, x.what)
				}
			}
		}
	}
	if several < 100 {
		t.Errorf("%d rasters of several values", several)
	}
	// float32 takes the run kernels at 26 (no check), also with one value.
	r := rasterOf(t, [3]int{65, 9, 9}, slices.Repeat([]uint8{0, 1, 1}, 65*9*3), func(int) uint32 { return 1 })
	f32 := make([]float32, r.Len())
	for i, v := range r.Data.(imagegraph.Samples[uint32]) {
		f32[i] = float32(v)
	}
	fr, err := imagegraph.NewRaster(65, 9, 9, f32)
	if err != nil {
		t.Fatal(err)
	}
	c.PerKernel = true
	_, _, tm, err := c.LabelGrid(fr, 26, imagegraph.Rule{Mode: imagegraph.Multilabel})
	c.PerKernel = false
	if err != nil {
		t.Fatal(err)
	}
	if tm.Kernels[0].Name != "runs_count_f32" || tm.Kernels[4].Name != "runs_link_c26_f32" {
		t.Errorf("float32 multilabel ran %v, want the run kernels alone", tm.Kernels)
	}
	checkGridOnGPU(t, c, fr, 26, imagegraph.Rule{Mode: imagegraph.Multilabel}, "float32 one value")
}

// oneValue reports whether the nonzero samples of r share one value.
func oneValue(r *imagegraph.Raster) bool {
	var vals []int64
	for i := range r.Len() { // integer samples of at most 32 bits
		vals = append(vals, int64(r.Value(i)))
	}
	first := int64(0)
	for _, v := range vals {
		if v != 0 && first != 0 && v != first {
			return false
		}
		if v != 0 {
			first = v
		}
	}
	return true
}
