package gridcc_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
)

// gridKeys serves a Grid's keys to runs.LabelGrid, the general path the
// fast paths are checked against.
type gridKeys struct {
	width int
	keys  []uint64
}

func (g gridKeys) Keys(row int, dst []uint64) { copy(dst, g.keys[row*g.width:(row+1)*g.width]) }

// generalLabels labels r under rule with runs.LabelGrid on Grid's keys.
func generalLabels(t *testing.T, r *imagegraph.Raster, rule imagegraph.Rule, conn int) ([]uint32, int) {
	t.Helper()
	g, err := gridcc.NewGrid(r, rule, conn)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]uint64, r.Len())
	for v := range keys {
		keys[v] = g.Key(v)
	}
	dst := make([]uint32, r.Len())
	n, err := runs.LabelGrid[uint64](grid.GridShape{Width: r.Width, Height: r.Height, Depth: r.Depth}, conn, gridKeys{r.Width, keys}, dst, 1)
	if err != nil {
		t.Fatal(err)
	}
	return dst, n
}

// modeRasters returns named rasters of a shape: few and many values,
// checkerboards, stripes, all foreground, one value, and a small
// segmentation from gen.CellsRaster.
func modeRasters(t *testing.T, w, h, d int, rng *rand.Rand) map[string]*imagegraph.Raster {
	t.Helper()
	n := w * h * d
	out := map[string]*imagegraph.Raster{}
	add := func(name string, r *imagegraph.Raster, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out[name] = r
	}
	u8 := func(f func(i, x, y, z int) uint8) []uint8 {
		s := make([]uint8, n)
		for i := range s {
			s[i] = f(i, i%w, i/w%h, i/(w*h))
		}
		return s
	}
	u32 := func(f func(i, x, y, z int) uint32) []uint32 {
		s := make([]uint32, n)
		for i := range s {
			s[i] = f(i, i%w, i/w%h, i/(w*h))
		}
		return s
	}
	r, err := imagegraph.NewRaster(w, h, d, u8(func(int, int, int, int) uint8 {
		if rng.Float64() < 0.6 {
			return 1 + uint8(rng.IntN(2))
		}
		return 0
	}))
	add("few", r, err)
	r, err = imagegraph.NewRaster(w, h, d, u8(func(int, int, int, int) uint8 { return uint8(rng.IntN(2)) * 9 }))
	add("one", r, err)
	r, err = imagegraph.NewRaster(w, h, d, u32(func(int, int, int, int) uint32 { return uint32(rng.IntN(5)) << 29 }))
	add("many", r, err)
	r, err = imagegraph.NewRaster(w, h, d, u8(func(_, x, y, z int) uint8 { return uint8((x + y + z) % 2) }))
	add("checker", r, err)
	r, err = imagegraph.NewRaster(w, h, d, u8(func(_, x, y, z int) uint8 { return uint8((x+y+z)%2 + 1) }))
	add("checker2", r, err)
	r, err = imagegraph.NewRaster(w, h, d, u8(func(_, x, y, z int) uint8 { return uint8(x % 3) }))
	add("stripes", r, err)
	r, err = imagegraph.NewRaster(w, h, d, u8(func(_, x, y, z int) uint8 { return uint8((y + z) % 3) }))
	add("rowstripes", r, err)
	r, err = imagegraph.NewRaster(w, h, d, u32(func(int, int, int, int) uint32 { return 0xdeadbeef }))
	add("all", r, err)
	r, err = imagegraph.NewRaster(w, h, d, make([]int16, n))
	add("none", r, err)
	r, err = gen.CellsRaster(w, h, d, max(1, n/40), 3)
	add("cells", r, err)
	return out
}

var modeRules = []imagegraph.Rule{
	{Mode: imagegraph.Multilabel},
	{Mode: imagegraph.Binary},
	{Mode: imagegraph.Threshold, Threshold: 2},
	{Mode: imagegraph.Threshold, Threshold: 2, Invert: true},
}

// TestLabelModesMatchOracles checks Label, for every rule, connectivity
// and thread count 1..4 and 7, against runs.LabelGrid and (small rasters)
// breadth-first search, on awkward shapes.
func TestLabelModesMatchOracles(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	shapes := [][3]int{{1, 1, 1}, {1, 61, 1}, {61, 1, 1}, {257, 311, 1}, {4097, 3, 1}, {3, 4097, 1}, {64, 64, 1}, {65, 33, 1},
		{1, 1, 37}, {2, 129, 33}, {13, 11, 7}, {64, 5, 6}, {65, 7, 9}, {1, 37, 2}, {37, 1, 3}}
	if testing.Short() {
		shapes = shapes[:3]
	}
	for _, s := range shapes {
		is3D := s[2] > 1
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for name, r := range modeRasters(t, s[0], s[1], s[2], rng) {
			for _, rule := range modeRules {
				for _, conn := range conns {
					want, wantN := generalLabels(t, r, rule, conn)
					if r.Len() <= 2000 {
						g, _ := gridcc.NewGrid(r, rule, conn)
						if bfs, n := bfsLabels(g); n != wantN || !slices.Equal(bfs, want) {
							t.Fatalf("%v %s %v c%d: LabelGrid differs from BFS", s, name, rule, conn)
						}
					}
					for _, threads := range []int{1, 2, 3, 4, 7} {
						l, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: threads}, nil)
						if err != nil {
							t.Fatal(err)
						}
						if l.Count != wantN || !slices.Equal(l.Data, want) {
							t.Fatalf("%v %s %v c%d threads %d: %d components, want %d", s, name, rule, conn, threads, l.Count, wantN)
						}
					}
				}
			}
		}
	}
}

// TestLabelModesSampleTypes checks the run extraction and single-value
// scan of every sample type: the same picture labels the same.
func TestLabelModesSampleTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, shape := range [][3]int{{131, 7, 1}, {67, 5, 4}} {
		w, h, d := shape[0], shape[1], shape[2]
		for _, values := range []int{1, 3} {
			vals := make([]int, w*h*d)
			for i := range vals {
				// Long runs, as in label maps, and some single pixels.
				if i%w == 0 || rng.IntN(9) == 0 {
					vals[i] = rng.IntN(values+1) * 40
				} else {
					vals[i] = vals[i-1]
				}
			}
			rasters := map[string]*imagegraph.Raster{}
			add := func(name string, r *imagegraph.Raster, err error) {
				if err != nil {
					t.Fatal(err)
				}
				rasters[name] = r
			}
			r, err := imagegraph.NewRaster(w, h, d, convert[uint8](vals))
			add("uint8", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[uint16](vals))
			add("uint16", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[uint32](vals))
			add("uint32", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[uint64](vals))
			add("uint64", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[int8](vals))
			add("int8", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[int16](vals))
			add("int16", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[int32](vals))
			add("int32", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[int64](vals))
			add("int64", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[float32](vals))
			add("float32", r, err)
			r, err = imagegraph.NewRaster(w, h, d, convert[float64](vals))
			add("float64", r, err)
			r, err = imagegraph.NewRGB(w, h, d, convert[uint32](vals))
			add("rgb", r, err)
			conns := []int{4, 8}
			if d > 1 {
				conns = []int{6, 18, 26}
			}
			for _, rule := range modeRules {
				for _, conn := range conns {
					want, wantN := generalLabels(t, rasters["uint8"], rule, conn)
					for name, r := range rasters {
						for _, threads := range []int{1, 3} {
							got, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: threads}, nil)
							if err != nil {
								t.Fatal(err)
							}
							if got.Count != wantN || !slices.Equal(got.Data, want) {
								t.Fatalf("%v %d values %s %v c%d threads %d: differs from the general path", shape, values, name, rule, conn, threads)
							}
						}
					}
				}
			}
		}
	}
}

// TestLabelModesCells labels a synthetic segmentation in both modes and
// checks it against the general path, on every thread count.
func TestLabelModesCells(t *testing.T) {
	for _, s := range [][4]int{{300, 200, 1, 60}, {48, 40, 36, 30}} {
		r, err := gen.CellsRaster(s[0], s[1], s[2], s[3], 5)
		if err != nil {
			t.Fatal(err)
		}
		conns := []int{4, 8}
		if s[2] > 1 {
			conns = []int{6, 18, 26}
		}
		for _, rule := range modeRules[:2] {
			for _, conn := range conns {
				want, wantN := generalLabels(t, r, rule, conn)
				for threads := 1; threads <= 8; threads++ {
					got, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: threads}, nil)
					if err != nil {
						t.Fatal(err)
					}
					if got.Count != wantN || !slices.Equal(got.Data, want) {
						t.Fatalf("cells %v %v c%d threads %d: %d components, want %d", s, rule, conn, threads, got.Count, wantN)
					}
				}
				if rule.Mode == imagegraph.Multilabel && wantN < s[3]/2 {
					t.Errorf("cells %v c%d: only %d components", s, conn, wantN)
				}
			}
		}
	}
}
