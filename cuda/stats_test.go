package cuda

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/measure"
)

// blockyRaster returns a w x h x d raster of values 0..k-1 in runs along
// x of random lengths, so that components have runs, faces and contacts.
func blockyRaster(t testing.TB, w, h, d, k int, seed uint64) *imagegraph.Raster {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	v := make([]uint8, w*h*d)
	for i := 0; i < len(v); {
		n, x := 1+rng.IntN(24), uint8(rng.IntN(k))
		for j := 0; j < n && i < len(v); j++ {
			v[i] = x
			i++
		}
	}
	r, err := imagegraph.NewRaster(w, h, d, v)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// intensityRaster returns random samples of kind for a w x h x d grid.
func intensityRaster(t testing.TB, kind imagegraph.SampleKind, w, h, d int, seed uint64) *imagegraph.Raster {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	n := w * h * d
	var r *imagegraph.Raster
	var err error
	switch kind {
	case imagegraph.Uint8:
		r, err = imagegraph.NewRaster(w, h, d, fill[uint8](n, func() uint8 { return uint8(rng.Uint32()) }))
	case imagegraph.Int8:
		r, err = imagegraph.NewRaster(w, h, d, fill[int8](n, func() int8 { return int8(rng.Uint32()) }))
	case imagegraph.Uint16:
		r, err = imagegraph.NewRaster(w, h, d, fill[uint16](n, func() uint16 { return uint16(rng.Uint32()) }))
	case imagegraph.Int16:
		r, err = imagegraph.NewRaster(w, h, d, fill[int16](n, func() int16 { return int16(rng.Uint32()) }))
	case imagegraph.Uint32:
		r, err = imagegraph.NewRaster(w, h, d, fill[uint32](n, rng.Uint32))
	case imagegraph.Int32:
		r, err = imagegraph.NewRaster(w, h, d, fill[int32](n, func() int32 { return int32(rng.Uint32()) }))
	case imagegraph.Float32:
		r, err = imagegraph.NewRaster(w, h, d, fill[float32](n, func() float32 { return rng.Float32()*2000 - 500 }))
	case imagegraph.Float64:
		r, err = imagegraph.NewRaster(w, h, d, fill[float64](n, func() float64 { return rng.NormFloat64()*1e-3 + 1e4 }))
	case imagegraph.Int64:
		r, err = imagegraph.NewRaster(w, h, d, fill[int64](n, func() int64 { return rng.Int64N(1000) }))
	default:
		t.Fatalf("no intensity of kind %v", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func fill[T any](n int, f func() T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = f()
	}
	return s
}

// same reports whether a and b are the same float64, bit for bit (any
// NaNs agree).
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// sameTable reports the first difference between the device's table and
// measure.Compute's, which are the same bit for bit (docs/measure.md).
func sameTable(got, want *measure.Table) error {
	if len(got.Components) != len(want.Components) {
		return fmt.Errorf("%d components, want %d", len(got.Components), len(want.Components))
	}
	for k := range want.Components {
		g, w := got.Components[k], want.Components[k]
		if g.Size != w.Size || g.Min != w.Min || g.Max != w.Max {
			return fmt.Errorf("label %d: size %d box %v-%v, want %d %v-%v", k+1, g.Size, g.Min, g.Max, w.Size, w.Min, w.Max)
		}
		floats := []struct {
			name string
			g, w float64
		}{
			{"centroid x", g.Centroid[0], w.Centroid[0]}, {"centroid y", g.Centroid[1], w.Centroid[1]}, {"centroid z", g.Centroid[2], w.Centroid[2]},
			{"eq_diameter", g.EqDiameter, w.EqDiameter}, {"surface", g.Surface, w.Surface},
			{"sum", g.Sum, w.Sum}, {"mean", g.Mean, w.Mean}, {"min", g.IMin, w.IMin}, {"max", g.IMax, w.IMax},
			{"wcx", g.WCentroid[0], w.WCentroid[0]}, {"wcy", g.WCentroid[1], w.WCentroid[1]}, {"wcz", g.WCentroid[2], w.WCentroid[2]},
		}
		for _, f := range floats {
			if !same(f.g, f.w) {
				return fmt.Errorf("label %d: %s %v, want %v", k+1, f.name, f.g, f.w)
			}
		}
		if !same(g.Std, w.Std) {
			return fmt.Errorf("label %d: std %v, want %v", k+1, g.Std, w.Std)
		}
	}
	if len(got.Contacts) != len(want.Contacts) || (got.Contacts == nil) != (want.Contacts == nil) {
		return fmt.Errorf("%d contacts, want %d", len(got.Contacts), len(want.Contacts))
	}
	for i, w := range want.Contacts {
		g := got.Contacts[i]
		if g.A != w.A || g.B != w.B || g.Faces != w.Faces || !same(g.Area, w.Area) {
			return fmt.Errorf("contact %d: %+v, want %+v", i, g, w)
		}
	}
	if !slices.Equal(got.First, want.First) {
		return fmt.Errorf("first voxels %v, want %v", got.First, want.First)
	}
	return nil
}

func TestLabelGridMeasureMatchesCPU(t *testing.T) {
	c := gpuContext(t)
	shapes := []struct{ w, h, d, k int }{
		{37, 23, 1, 4}, {300, 17, 1, 3}, {16, 16, 1, 50}, {70, 9, 7, 3}, {33, 5, 6, 200}, {1, 40, 3, 2}, {129, 31, 20, 5}, {64, 64, 64, 2},
	}
	kinds := []imagegraph.SampleKind{0, imagegraph.Uint8, imagegraph.Int8, imagegraph.Uint16, imagegraph.Int16,
		imagegraph.Uint32, imagegraph.Int32, imagegraph.Float32, imagegraph.Float64}
	seed := uint64(1)
	for _, sh := range shapes {
		conns := []int{4, 8}
		if sh.d > 1 {
			conns = []int{6, 18, 26}
		}
		for _, conn := range conns {
			for ki, kind := range kinds {
				seed++
				r := blockyRaster(t, sh.w, sh.h, sh.d, sh.k, seed)
				opt := measure.Options{Surface: ki%2 == 0, Contacts: ki%3 != 1, Spacing: [3]float64{0.5, 1.25, 3}}
				if kind != 0 {
					opt.Intensity = intensityRaster(t, kind, sh.w, sh.h, sh.d, seed)
					if ki%2 == 1 {
						opt.Slope, opt.Inter = 0.75, -12.5
					}
				}
				name := fmt.Sprintf("%dx%dx%d-k%d-c%d-%v", sh.w, sh.h, sh.d, sh.k, conn, kind)
				t.Run(name, func(t *testing.T) {
					rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
					labels, count, _, err := c.LabelGrid(r, conn, rule)
					if err != nil {
						t.Fatal(err)
					}
					want, err := measure.Compute(labels, sh.w, sh.h, sh.d, count, opt)
					if err != nil {
						t.Fatal(err)
					}
					got, err := c.LabelGridMeasure(r, conn, rule, opt, nil)
					if err != nil {
						t.Fatal(err)
					}
					if got.Table == nil || got.Labels.Labels != nil || got.Labels.Count != count {
						t.Fatalf("table %v, labels downloaded %v, count %d: want the table alone, count %d", got.Table != nil, got.Labels.Labels != nil, got.Labels.Count, count)
					}
					if err := sameTable(got.Table, want); err != nil {
						t.Fatal(err)
					}
					for k, i := range got.First {
						if int(labels[i]) != k+1 || slices.Index(labels, uint32(k+1)) != i {
							t.Fatalf("label %d: first voxel %d, want %d", k+1, i, slices.Index(labels, uint32(k+1)))
						}
					}
				})
			}
		}
	}
}

func TestLabelGridMeasureGrowsContacts(t *testing.T) {
	c := gpuContext(t)
	defer func(m, p int64) { statsMinSlots, statsPairsPerLabel = m, p }(statsMinSlots, statsPairsPerLabel)
	statsMinSlots, statsPairsPerLabel = 1, 0 // two slots: the table grows
	r := blockyRaster(t, 50, 40, 12, 30, 3)
	opt := measure.Options{Contacts: true}
	labels, count, _, err := c.LabelGrid(r, 6, imagegraph.Rule{Mode: imagegraph.Multilabel})
	if err != nil {
		t.Fatal(err)
	}
	want, err := measure.Compute(labels, 50, 40, 12, count, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.LabelGridMeasure(r, 6, imagegraph.Rule{Mode: imagegraph.Multilabel}, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Contacts) < 1000 {
		t.Fatalf("only %d contacts", len(want.Contacts))
	}
	if err := sameTable(got.Table, want); err != nil {
		t.Fatal(err)
	}
}

func TestLabelGridMeasureFallsBack(t *testing.T) {
	c := gpuContext(t)
	r := blockyRaster(t, 40, 30, 5, 3, 9)
	nan := intensityRaster(t, imagegraph.Float32, 40, 30, 5, 9)
	nan.Data.(imagegraph.Samples[float32])[77] = float32(math.NaN())
	for _, tc := range []struct {
		name string
		in   *imagegraph.Raster
	}{
		{"nan", nan},
		{"int64", intensityRaster(t, imagegraph.Int64, 40, 30, 5, 9)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, count, _, err := c.LabelGrid(r, 26, imagegraph.Rule{Mode: imagegraph.Multilabel})
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.LabelGridMeasure(r, 26, imagegraph.Rule{Mode: imagegraph.Multilabel}, measure.Options{Intensity: tc.in}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Table != nil || !slices.Equal(got.Labels.Labels, want) || got.Labels.Count != count {
				t.Fatalf("table %v, labels equal %v: want the labels and no table", got.Table != nil, slices.Equal(got.Labels.Labels, want))
			}
		})
	}
}

// BenchmarkGPUMeasure times the measurement of the 512³ cells volume
// (multilabel, "cclabel gen volume --kind cells --seed 1") on the device
// against its labeling: the labeling kernels alone (LabelGrid), then
// LabelGridMeasure with a random float32 intensity, surface and contacts
// (the labels never downloaded), median kernel times printed.
func BenchmarkGPUMeasure(b *testing.B) {
	c := gpuContext(b)
	r, err := gen.CellsRaster(512, 512, 512, 4000, 1)
	if err != nil {
		b.Fatal(err)
	}
	in := intensityRaster(b, imagegraph.Float32, 512, 512, 512, 1)
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	for _, conn := range []int{26, 6} {
		for _, o := range []struct {
			name string
			opt  measure.Options
		}{
			{"size", measure.Options{}},
			{"all", measure.Options{Intensity: in, Surface: true, Contacts: true}},
		} {
			b.Run(fmt.Sprintf("c%d-%s", conn, o.name), func(b *testing.B) {
				var label, meas, up, down []float64
				var last GridMeasure
				for b.Loop() {
					_, _, t, err := c.LabelGrid(r, conn, rule)
					if err != nil {
						b.Fatal(err)
					}
					label = append(label, t.Kernel.Seconds()*1e3)
					m, err := c.LabelGridMeasure(r, conn, rule, o.opt, nil)
					if err != nil || m.Table == nil {
						b.Fatal(err, m.Table == nil)
					}
					meas = append(meas, (m.Timing.Kernel+m.Measure.Kernel).Seconds()*1e3)
					up = append(up, m.Measure.Upload.Seconds()*1e3)
					down = append(down, m.Measure.Download.Seconds()*1e3)
					last = m
				}
				med := func(s []float64) float64 { slices.Sort(s); return s[len(s)/2] }
				l, m := med(label), med(meas)
				c.PerKernel = true
				k, err := c.LabelGridMeasure(r, conn, rule, o.opt, nil)
				c.PerKernel = false
				if err != nil {
					b.Fatal(err)
				}
				for _, kt := range k.Measure.Kernels {
					fmt.Printf("  %s %.3f ms\n", kt.Name, kt.Duration.Seconds()*1e3)
				}
				fmt.Printf("c%d %s: %d components, %d contacts; label kernel %.3f ms, label+measure kernels %.3f ms (%.2fx), intensity upload %.2f ms, table download %.3f ms, over %d runs\n",
					conn, o.name, last.Labels.Count, len(last.Table.Contacts), l, m, m/l, med(up), med(down), len(label))
				b.ReportMetric(m/l, "x-label")
			})
		}
	}
}

// deviceWords builds the table and contact slots the statistics kernels
// leave for labels (count components) and intensity in (nil: none), the
// layout of kernels/stats.cu, by a plain loop over the voxels.
func deviceWords(labels []uint32, w, h, d, count int, in *imagegraph.Raster, opt measure.Options, scale int) (table, keys []uint64, counts []uint32) {
	stride := statsWords
	if in != nil {
		stride = statsIntensityWords
	}
	table = make([]uint64, (count+1)*stride)
	for l := range count + 1 {
		e := table[l*stride:]
		e[4], e[5], e[6], e[7] = 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff
		if in != nil {
			e[10] = math.MaxUint64
		}
	}
	pairs := map[[2]uint32]*[3]uint32{}
	at := func(x, y, z int) uint32 {
		if x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d {
			return math.MaxUint32
		}
		return labels[(z*h+y)*w+x]
	}
	key := func(v float64) uint64 {
		b := math.Float64bits(v)
		if b>>63 != 0 {
			return ^b
		}
		return b | 1<<63
	}
	set := func(p *uint64, lo bool, v uint32, less bool) {
		cur := uint32(*p)
		if !lo {
			cur = uint32(*p >> 32)
		}
		if (less && v < cur) || (!less && v > cur) {
			if lo {
				*p = *p&^0xffffffff | uint64(v)
			} else {
				*p = *p&0xffffffff | uint64(v)<<32
			}
		}
	}
	for z := range d {
		for y := range h {
			for x := range w {
				i := (z*h+y)*w + x
				L := labels[i]
				if L == 0 {
					continue
				}
				e := table[int(L)*stride:]
				p := [3]int{x, y, z}
				e[0]++
				for a := range 3 {
					e[1+a] += uint64(p[a])
					set(&e[4+a], true, uint32(p[a]), true)
					set(&e[4+a], false, uint32(p[a]), false)
				}
				set(&e[7], true, uint32(i), true)
				// Pairs of face neighbours inside the label.
				e[8] += uint64(btoi(at(x+1, y, z) == L)) | uint64(btoi(at(x, y+1, z) == L))<<32
				if d > 1 {
					e[9] += uint64(btoi(at(x, y, z+1) == L))
				}
				nb := []uint32{at(x+1, y, z), at(x, y+1, z), math.MaxUint32}
				if d > 1 {
					nb[2] = at(x, y, z+1)
				}
				for a, b := range nb {
					if b != L && b != 0 && b != math.MaxUint32 {
						k := [2]uint32{min(L, b), max(L, b)}
						if pairs[k] == nil {
							pairs[k] = new([3]uint32)
						}
						pairs[k][a]++
					}
				}
				if in != nil {
					v := in.Value(i)
					if opt.Slope != 1 || opt.Inter != 0 {
						v = float64(v*opt.Slope) + opt.Inter
					}
					e[10], e[11] = min(e[10], key(v)), max(e[11], key(v))
					// Each voxel a run of its own: its sums' limbs
					// added to the limb words.
					q := big.NewInt(int64(math.RoundToEven(math.Ldexp(v, scale))))
					addLimbs(e[12:14], q)
					addLimbs(e[14:18], new(big.Int).Mul(q, q))
					for a, c := range []int{x, y, z} {
						addLimbs(e[18+3*a:21+3*a], new(big.Int).Mul(q, big.NewInt(int64(c))))
					}
				}
			}
		}
	}
	for k, f := range pairs { // slots in any order, empty ones between
		keys = append(keys, 0, uint64(k[0])<<32|uint64(k[1]))
		counts = append(counts, 0, 0, 0, f[0], f[1], f[2])
	}
	return table, keys, counts
}

// addLimbs adds v (below 2^128 in magnitude) to the limb words ws as
// kernels/stats.cu's slimbs does: its 32-bit limbs, two's complement, to
// the words but the last, and the rest, arithmetically shifted, to the
// last.
func addLimbs(ws []uint64, v *big.Int) {
	last := len(ws) - 1
	mod := new(big.Int).Lsh(big.NewInt(1), 128)
	u := new(big.Int).Mod(v, mod) // two's complement
	for k := range last {
		ws[k] += new(big.Int).Rsh(u, uint(32*k)).Uint64() & 0xffffffff
	}
	ws[last] += uint64(new(big.Int).Rsh(v, uint(32*last)).Int64()) // floor: arithmetic
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestStatsTableDecodes: the host's reading of the kernels' table and
// contact slots (built here by a plain loop, in the layout of
// kernels/stats.cu) gives measure.Compute's table. It needs no GPU.
func TestStatsTableDecodes(t *testing.T) {
	for i, sh := range []struct{ w, h, d, k int }{{37, 23, 1, 4}, {70, 9, 7, 3}, {33, 5, 6, 40}, {1, 40, 3, 2}} {
		for _, kind := range []imagegraph.SampleKind{0, imagegraph.Int16, imagegraph.Float32, imagegraph.Float64} {
			r := blockyRaster(t, sh.w, sh.h, sh.d, sh.k, uint64(i))
			labels, count := labelsOf(r)
			opt := measure.Options{Surface: true, Contacts: true, Spacing: [3]float64{0.5, 1.25, 3}}
			s := &statsRun{entries: int64(count) + 1, stride: statsWords}
			scale := 0.0
			if kind != 0 {
				opt.Intensity = intensityRaster(t, kind, sh.w, sh.h, sh.d, uint64(i))
				opt.Slope, opt.Inter = 0.75, -12.5
				s.stride = statsIntensityWords
				for i := range r.Len() {
					scale = max(scale, math.Abs(opt.Intensity.Value(i)*0.75-12.5))
				}
				_, e := math.Frexp(scale)
				s.shape.scale = int32(statsMaxBits - e)
			}
			want, err := measure.Compute(labels, sh.w, sh.h, sh.d, count, opt)
			if err != nil {
				t.Fatal(err)
			}
			table, keys, counts := deviceWords(labels, sh.w, sh.h, sh.d, count, opt.Intensity, opt, int(s.shape.scale))
			got, first := statsTable(table, keys, counts, s, sh.d > 1, opt)
			if err := sameTable(got, want); err != nil {
				t.Errorf("%dx%dx%d %v: %v", sh.w, sh.h, sh.d, kind, err)
			}
			for k, i := range first {
				if slices.Index(labels, uint32(k+1)) != i {
					t.Fatalf("label %d: first voxel %d", k+1, i)
				}
			}
		}
	}
}

// labelsOf labels r's equal face neighbours (6 or 4) by a plain flood
// fill, numbered by first occurrence.
func labelsOf(r *imagegraph.Raster) ([]uint32, int) {
	w, h, d := r.Width, r.Height, r.Depth
	labels := make([]uint32, r.Len())
	count := 0
	for s := range labels {
		if labels[s] != 0 || r.Value(s) == 0 {
			continue
		}
		count++
		labels[s] = uint32(count)
		stack := []int{s}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y, z := i%w, i/w%h, i/(w*h)
			for _, n := range [][3]int{{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z}, {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}} {
				if n[0] < 0 || n[1] < 0 || n[2] < 0 || n[0] >= w || n[1] >= h || n[2] >= d {
					continue
				}
				j := (n[2]*h+n[1])*w + n[0]
				if labels[j] == 0 && r.Value(j) == r.Value(i) {
					labels[j] = uint32(count)
					stack = append(stack, j)
				}
			}
		}
	}
	return labels, count
}
