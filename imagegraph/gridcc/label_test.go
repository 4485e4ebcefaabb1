package gridcc_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// bfsLabels is the oracle: breadth-first search over Grid's neighbours,
// numbering components by their first pixel.
func bfsLabels(g *gridcc.Grid) ([]uint32, int) {
	n := g.NumVertices()
	labels := make([]uint32, n)
	next := uint32(0)
	var queue []int32
	var buf []int32
	for s := range n {
		if labels[s] != 0 || g.Key(s) == 0 {
			continue
		}
		next++
		labels[s] = next
		queue = append(queue[:0], int32(s))
		for len(queue) > 0 {
			v := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			buf = g.Neighbors(int(v), buf)
			for _, u := range buf {
				if labels[u] == 0 {
					labels[u] = next
					queue = append(queue, u)
				}
			}
		}
	}
	return labels, int(next)
}

// materializedLabels labels the grid through its CSR graph and the general
// ECL-CC path, background vertices mapped to 0.
func materializedLabels(t *testing.T, g *gridcc.Grid) []uint32 {
	t.Helper()
	csr, err := g.Materialize()
	if err != nil {
		t.Fatal(err)
	}
	if err := csr.Validate(); err != nil || !csr.IsSymmetric(1) {
		t.Fatalf("materialized graph invalid or asymmetric: %v", err)
	}
	r, err := ecl.Components(csr, ecl.Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(r.Parent))
	ids := map[int32]uint32{}
	for v, p := range r.Parent {
		if g.Key(v) == 0 {
			continue
		}
		if _, ok := ids[p]; !ok {
			ids[p] = uint32(len(ids) + 1)
		}
		out[v] = ids[p]
	}
	return out
}

// shapes2D and shapes3D are awkward sizes.
var (
	shapes2D = [][3]int{{1, 1, 1}, {1, 13, 1}, {13, 1, 1}, {2, 2, 1}, {17, 11, 1}, {31, 37, 1}, {64, 5, 1}, {65, 6, 1}, {129, 3, 1}}
	shapes3D = [][3]int{{1, 1, 2}, {1, 1, 17}, {17, 1, 2}, {1, 13, 3}, {5, 7, 11}, {13, 11, 7}}
)

// patterns returns named sample slices for a shape.
func patterns(w, h, d int, rng *rand.Rand) map[string][]int16 {
	n := w * h * d
	out := map[string][]int16{}
	fill := func(name string, f func(x, y, z int) int16) {
		s := make([]int16, n)
		for i := range s {
			s[i] = f(i%w, i/w%h, i/(w*h))
		}
		out[name] = s
	}
	fill("all", func(int, int, int) int16 { return 7 })
	fill("none", func(int, int, int) int16 { return 0 })
	fill("checker", func(x, y, z int) int16 { return int16((x + y + z) % 2) })
	fill("checker2", func(x, y, z int) int16 { return int16((x+y+z)%2*3 - 1) })
	fill("random", func(int, int, int) int16 { return int16(rng.IntN(2)) })
	fill("dense", func(int, int, int) int16 { return int16(min(rng.IntN(5), 1)) })
	fill("labels", func(int, int, int) int16 { return int16(rng.IntN(4) - 1) })
	fill("ramp", func(x, y, z int) int16 { return int16(x*3 + y*5 + z*7 - 20) })
	return out
}

func TestLabelMatchesOracles(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	rules := []imagegraph.Rule{
		{Mode: imagegraph.Multilabel},
		{Mode: imagegraph.Binary},
		{Mode: imagegraph.Threshold, Threshold: 1},
		{Mode: imagegraph.Threshold, Threshold: 1, Invert: true},
	}
	for _, is3D := range []bool{false, true} {
		shapes, conns := shapes2D, []int{4, 8}
		if is3D {
			shapes, conns = shapes3D, []int{6, 18, 26}
		}
		for _, s := range shapes {
			for name, data := range patterns(s[0], s[1], s[2], rng) {
				r, err := imagegraph.NewRaster(s[0], s[1], s[2], data)
				if err != nil {
					t.Fatal(err)
				}
				for _, rule := range rules {
					for _, conn := range conns {
						g, err := gridcc.NewGrid(r, rule, conn)
						if err != nil {
							t.Fatal(err)
						}
						want, wantN := bfsLabels(g)
						if got := materializedLabels(t, g); !slices.Equal(got, want) {
							t.Fatalf("%v %s %v c%d: general path differs from BFS", s, name, rule, conn)
						}
						for _, threads := range []int{1, 2, 3} {
							l, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: threads}, nil)
							if err != nil {
								t.Fatal(err)
							}
							if l.Count != wantN || !slices.Equal(l.Data, want) {
								t.Fatalf("%v %s %v c%d threads %d: %d components, want %d\n got %v\nwant %v",
									s, name, rule, conn, threads, l.Count, wantN, l.Data, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestLabelSampleTypes(t *testing.T) {
	// The same picture in every sample type gives the same labels.
	const w, h = 23, 19
	rng := rand.New(rand.NewPCG(3, 3))
	vals := make([]int, w*h)
	for i := range vals {
		vals[i] = rng.IntN(3) * 40
	}
	rasters := map[string]*imagegraph.Raster{}
	add := func(name string) func(*imagegraph.Raster, error) {
		return func(r *imagegraph.Raster, err error) {
			if err != nil {
				t.Fatal(err)
			}
			rasters[name] = r
		}
	}
	add("uint8")(imagegraph.NewRaster(w, h, 1, convert[uint8](vals)))
	add("uint16")(imagegraph.NewRaster(w, h, 1, convert[uint16](vals)))
	add("uint32")(imagegraph.NewRaster(w, h, 1, convert[uint32](vals)))
	add("uint64")(imagegraph.NewRaster(w, h, 1, convert[uint64](vals)))
	add("int8")(imagegraph.NewRaster(w, h, 1, convert[int8](vals)))
	add("int16")(imagegraph.NewRaster(w, h, 1, convert[int16](vals)))
	add("int32")(imagegraph.NewRaster(w, h, 1, convert[int32](vals)))
	add("int64")(imagegraph.NewRaster(w, h, 1, convert[int64](vals)))
	add("float32")(imagegraph.NewRaster(w, h, 1, convert[float32](vals)))
	add("float64")(imagegraph.NewRaster(w, h, 1, convert[float64](vals)))
	add("rgb")(imagegraph.NewRGB(w, h, 1, convert[uint32](vals)))
	for _, rule := range []string{"multilabel", "binary", "threshold:40", "threshold:40:invert"} {
		r, _ := imagegraph.ParseRule(rule)
		for _, conn := range []int{4, 8} {
			want, err := gridcc.Label(rasters["uint8"], r, gridcc.Options{Connectivity: conn}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for name, raster := range rasters {
				got, err := gridcc.Label(raster, r, gridcc.Options{Connectivity: conn}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got.Count != want.Count || !slices.Equal(got.Data, want.Data) {
					t.Errorf("%s %s c%d: differs from uint8", name, rule, conn)
				}
			}
		}
	}
}

func convert[T imagegraph.Sample](vals []int) []T {
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = T(v)
	}
	return out
}

func TestLabelFloatSpecialValues(t *testing.T) {
	nan := float32(0)
	nan /= nan
	negZero := float32(0)
	negZero = -negZero
	data := []float32{1.5, 1.5, nan, nan, negZero, 2.5, 1.5}
	r, _ := imagegraph.NewRaster(7, 1, 1, data)
	l, err := gridcc.Label(r, imagegraph.Rule{}, gridcc.Options{Connectivity: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint32{1, 1, 0, 0, 0, 2, 3}; !slices.Equal(l.Data, want) {
		t.Fatalf("labels %v, want %v (NaN and -0 are background)", l.Data, want)
	}
}

func TestLabelErrors(t *testing.T) {
	r2, _ := imagegraph.NewRaster(2, 2, 1, make([]uint8, 4))
	r3, _ := imagegraph.NewRaster(2, 2, 2, make([]uint8, 8))
	for _, c := range []struct {
		r    *imagegraph.Raster
		conn int
	}{{r2, 6}, {r2, 26}, {r3, 4}, {r3, 8}, {r2, 5}} {
		if _, err := gridcc.Label(c.r, imagegraph.Rule{}, gridcc.Options{Connectivity: c.conn}, nil); err == nil {
			t.Errorf("%dx%dx%d connectivity %d accepted", c.r.Width, c.r.Height, c.r.Depth, c.conn)
		}
	}
	if _, err := imagegraph.NewRaster(0, 3, 1, []uint8{}); err == nil {
		t.Error("zero width accepted")
	}
	if _, err := imagegraph.NewRaster(2, 2, 1, make([]uint8, 3)); err == nil {
		t.Error("short data accepted")
	}
	if _, err := imagegraph.PixelCount(1<<20, 1<<20, 1); err == nil {
		t.Error("2^40 pixels accepted")
	}
	if _, err := imagegraph.ParseRule("threshold:x"); err == nil {
		t.Error("bad threshold accepted")
	}
}

func TestLargeRandomThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const w, h = 1031, 777
	data := make([]uint8, w*h)
	for i := range data {
		if rng.Float64() < 0.6 {
			data[i] = uint8(1 + rng.IntN(2))
		}
	}
	r, _ := imagegraph.NewRaster(w, h, 1, data)
	for _, rule := range []string{"binary", "multilabel"} {
		ru, _ := imagegraph.ParseRule(rule)
		for _, conn := range []int{4, 8} {
			ref, err := gridcc.Label(r, ru, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := gridcc.NewGrid(r, ru, conn)
			want, _ := bfsLabels(g)
			if !slices.Equal(ref.Data, want) {
				t.Fatalf("%s c%d: serial differs from BFS", rule, conn)
			}
			for threads := 2; threads <= 8; threads++ {
				got, _ := gridcc.Label(r, ru, gridcc.Options{Connectivity: conn, Threads: threads}, nil)
				if !slices.Equal(got.Data, ref.Data) {
					t.Fatalf("%s c%d threads %d differs from serial", rule, conn, threads)
				}
			}
		}
	}
}

func TestThresholdScaling(t *testing.T) {
	// Stored 0..5 scaled by 2x-3 gives -3, -1, 1, 3, 5, 7: >= 3 from stored 3 on.
	r, _ := imagegraph.NewRaster(6, 1, 1, []int16{0, 1, 2, 3, 4, 5})
	for _, c := range []struct {
		rule imagegraph.Rule
		want []uint32
	}{
		{imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 3, Slope: 2, Inter: -3}, []uint32{0, 0, 0, 1, 1, 1}},
		{imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 3, Slope: -1, Inter: 5}, []uint32{1, 1, 1, 0, 0, 0}},
		{imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 3}, []uint32{0, 0, 0, 1, 1, 1}},
		{imagegraph.Rule{Mode: imagegraph.Binary, Slope: 0.5, Inter: 9}, []uint32{0, 1, 1, 1, 1, 1}},
		// 3*0.1 rounds to 0.30000000000000004 before the intercept: exactly 0,
		// at the threshold (a fused multiply-add would give -2.8e-17). The GPU
		// computes the same.
		{imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 0, Slope: 0.1, Inter: -0.30000000000000004}, []uint32{0, 0, 0, 1, 1, 1}},
	} {
		for _, conn := range []int{4, 8} {
			l, err := gridcc.Label(r, c.rule, gridcc.Options{Connectivity: conn}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(l.Data, c.want) {
				t.Errorf("%+v c%d: %v, want %v", c.rule, conn, l.Data, c.want)
			}
			g, _ := gridcc.NewGrid(r, c.rule, conn)
			if want, _ := bfsLabels(g); !slices.Equal(want, c.want) {
				t.Errorf("%+v c%d: grid oracle %v", c.rule, conn, want)
			}
		}
	}
}
