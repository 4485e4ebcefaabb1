package cuda

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// dotsRaster is a w x h image with a foreground pixel at every even x and
// y: (w+1)/2 * (h+1)/2 components at 4-connectivity.
func dotsRaster(w, h int) *imagegraph.Raster {
	data := make([]uint8, w*h)
	for y := 0; y < h; y += 2 {
		for x := 0; x < w; x += 2 {
			data[y*w+x] = 1
		}
	}
	return &imagegraph.Raster{Width: w, Height: h, Depth: 1, Kind: imagegraph.Uint8, Data: data}
}

// TestLabelGridNarrowMatchesCPU checks the uint16 download against the
// CPU's labels: lengths that are not multiples of the kernel's groups of
// 8, a volume large enough for the staged copy, counts on both sides of
// 65535, and reused buffers with stale contents.
func TestLabelGridNarrowMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	if err := c.dc.Do(func() error {
		if !c.canNarrow() {
			return fmt.Errorf("the kernels have no %s", narrowKernel)
		}
		return nil
	}); err != nil {
		t.Skip(err)
	}
	type tc struct {
		name string
		r    *imagegraph.Raster
		conn int
	}
	var cases []tc
	for i, s := range [][3]int{{1, 1, 1}, {7, 3, 1}, {129, 17, 1}, {13, 11, 7}, {257, 129, 161}} {
		r, err := gen.RandomRaster(s[0], s[1], s[2], 0.3, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		conn := 8
		if s[2] > 1 {
			conn = 26
		}
		cases = append(cases, tc{fmt.Sprint(s), r, conn})
	}
	// Dots: 255 x 514 has 128*257 = 32,896 components, 509 and 510 x 514
	// 65,535, 511 x 514 65,792.
	for _, s := range [][2]int{{255, 514}, {509, 514}, {510, 514}, {511, 514}} {
		cases = append(cases, tc{fmt.Sprintf("dots %dx%d", s[0], s[1]), dotsRaster(s[0], s[1]), 4})
	}
	var dst32 []uint32
	var dst16 []uint16
	for _, k := range cases {
		rule := imagegraph.Rule{Mode: imagegraph.Binary}
		want, err := imagegraph.Label(k.r, rule, imagegraph.Options{Connectivity: k.conn, Threads: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for pass := range 2 { // fresh arrays, then the previous case's or this one's, stale
			g, _, err := c.LabelGridNarrow(k.r, k.conn, rule, dst32, dst16)
			if err != nil {
				t.Fatal(err)
			}
			if g.Count != want.Count {
				t.Fatalf("%s pass %d: %d components, CPU %d", k.name, pass, g.Count, want.Count)
			}
			narrow := want.Count <= MaxNarrowCount
			if (g.Narrow != nil) != narrow || (g.Labels != nil) == narrow {
				t.Fatalf("%s pass %d: %d components gave %d uint16 and %d uint32 labels", k.name, pass, g.Count, len(g.Narrow), len(g.Labels))
			}
			got := g.Labels
			if narrow {
				got = make([]uint32, len(g.Narrow))
				for i, v := range g.Narrow {
					got[i] = uint32(v)
				}
				dst16 = g.Narrow
			} else {
				dst32 = g.Labels
			}
			if !slices.Equal(got, want.Data) {
				i := 0
				for got[i] == want.Data[i] {
					i++
				}
				t.Fatalf("%s pass %d: first difference at %d: GPU %d, CPU %d", k.name, pass, i, got[i], want.Data[i])
			}
			if narrow {
				for i := range dst16 { // stale, for the next pass
					dst16[i] = 0xa5a5
				}
			} else {
				for i := range dst32 {
					dst32[i] = 0xa5a5a5a5
				}
			}
		}
	}
}
