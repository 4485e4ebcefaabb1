package measure

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// randomLabels returns w*h*d labels in 0..count: runs along x that repeat
// the label before with probability keep, the label one row or plane
// before with probability keep/2, else a random label.
func randomLabels[L Label](rng *rand.Rand, w, h, d, count int, keep float64) []L {
	labels := make([]L, w*h*d)
	for i := range labels {
		switch u := rng.Float64(); {
		case i > 0 && u < keep:
			labels[i] = labels[i-1]
		case i >= w && u < keep*1.5:
			labels[i] = labels[i-w]
		default:
			labels[i] = L(rng.IntN(count + 1))
		}
	}
	return labels
}

// randomIntensity returns an intensity raster of kind for n voxels.
func randomIntensity(rng *rand.Rand, kind imagegraph.SampleKind, w, h, d int) *imagegraph.Raster {
	n := w * h * d
	switch kind {
	case imagegraph.Uint8:
		v := make([]uint8, n)
		for i := range v {
			v[i] = uint8(rng.IntN(256))
		}
		return naiveRaster(w, h, d, v)
	case imagegraph.Int16:
		v := make([]int16, n)
		for i := range v {
			v[i] = int16(rng.IntN(65536) - 32768)
		}
		return naiveRaster(w, h, d, v)
	case imagegraph.Float64:
		v := make([]float64, n)
		for i := range v {
			v[i] = 1000 + rng.NormFloat64()
		}
		return naiveRaster(w, h, d, v)
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = rng.Float32()
	}
	return naiveRaster(w, h, d, v)
}

// close reports whether got is within rel of want, relative to the
// larger magnitude (or absolutely below 1e-300).
func close(got, want, rel float64) bool {
	if got == want || math.IsNaN(got) && math.IsNaN(want) {
		return true
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(got), math.Abs(want))
}

// compareTables reports the first difference between got and want, with
// floating-point values within rel.
func compareTables(got, want *Table, rel float64) error {
	if len(got.Components) != len(want.Components) {
		return fmt.Errorf("%d components, want %d", len(got.Components), len(want.Components))
	}
	if want.First != nil && !slices.Equal(got.First, want.First) {
		return fmt.Errorf("first voxels %v, want %v", got.First, want.First)
	}
	for k := range got.Components {
		g, w := got.Components[k], want.Components[k]
		if g.Size != w.Size || g.Min != w.Min || g.Max != w.Max {
			return fmt.Errorf("label %d: size %d box %v-%v, want %d %v-%v", k+1, g.Size, g.Min, g.Max, w.Size, w.Min, w.Max)
		}
		gf := []float64{g.EqDiameter, g.Sum, g.Mean, g.IMin, g.IMax, g.Std, g.Surface}
		wf := []float64{w.EqDiameter, w.Sum, w.Mean, w.IMin, w.IMax, w.Std, w.Surface}
		gf = append(append(gf, g.Centroid[:]...), g.WCentroid[:]...)
		wf = append(append(wf, w.Centroid[:]...), w.WCentroid[:]...)
		names := []string{"eq_diameter", "sum", "mean", "min", "max", "std", "surface", "cx", "cy", "cz", "wcx", "wcy", "wcz"}
		for j := range gf {
			if !close(gf[j], wf[j], rel) {
				return fmt.Errorf("label %d: %s %v, want %v", k+1, names[j], gf[j], wf[j])
			}
		}
	}
	if len(got.Contacts) != len(want.Contacts) {
		return fmt.Errorf("%d contacts, want %d", len(got.Contacts), len(want.Contacts))
	}
	for i, g := range got.Contacts {
		w := want.Contacts[i]
		if g.A != w.A || g.B != w.B || g.Faces != w.Faces || !close(g.Area, w.Area, rel) {
			return fmt.Errorf("contact %d: %+v, want %+v", i, g, w)
		}
	}
	return nil
}

func TestComputeAgainstNaive(t *testing.T) {
	kinds := []imagegraph.SampleKind{imagegraph.Float32, imagegraph.Uint8, imagegraph.Int16, imagegraph.Float64}
	for _, tc := range []struct {
		name    string
		w, h, d int
		count   int
		keep    float64
		spacing [3]float64
	}{
		{"2d-runs", 37, 23, 1, 9, 0.8, [3]float64{}},
		{"2d-noise-aniso", 19, 31, 1, 40, 0, [3]float64{0.5, 2.25, 0}},
		{"3d-runs-aniso", 17, 13, 11, 12, 0.85, [3]float64{0.7, 1.3, 3.1}},
		{"3d-noise", 9, 8, 7, 300, 0, [3]float64{1, 1, 1}},
		{"3d-one-row", 64, 1, 5, 3, 0.5, [3]float64{2, 2, 2}},
		{"1-voxel", 1, 1, 1, 1, 0.5, [3]float64{}},
		{"column", 1, 1, 29, 4, 0.6, [3]float64{1, 1, 0.25}},
		{"empty-labels", 11, 7, 3, 200, 0.95, [3]float64{}},
		{"2d-wide", 300, 9, 1, 30, 0.9, [3]float64{1, 0.5, 0}},
		{"3d-wide", 1100, 3, 4, 25, 0.97, [3]float64{0.3, 0.3, 1}},
		{"2d-65", 65, 6, 1, 7, 0.9, [3]float64{}},
		{"3d-128", 128, 4, 3, 9, 0.93, [3]float64{1, 2, 1}},
	} {
		for seed := range uint64(3) {
			rng := rand.New(rand.NewPCG(seed, 7))
			kind := kinds[int(seed)%len(kinds)]
			opt := Options{
				Intensity: randomIntensity(rng, kind, tc.w, tc.h, tc.d),
				Spacing:   tc.spacing, Surface: true, Contacts: true,
			}
			if seed == 2 {
				opt.Slope, opt.Inter = 0.37, -12.5
			}
			labels32 := randomLabels[uint32](rng, tc.w, tc.h, tc.d, tc.count, tc.keep)
			labels16 := make([]uint16, len(labels32))
			for i, v := range labels32 {
				labels16[i] = uint16(v)
			}
			want := naive(labels32, tc.w, tc.h, tc.d, tc.count, opt)
			for _, threads := range []int{1, 2, 3, 5, 16} {
				name := fmt.Sprintf("%s/seed%d/%v/threads%d", tc.name, seed, kind, threads)
				t.Run(name, func(t *testing.T) {
					opt := opt
					opt.Threads = threads
					got, err := Compute(labels32, tc.w, tc.h, tc.d, tc.count, opt)
					if err != nil {
						t.Fatal(err)
					}
					if err := compareTables(got, want, 1e-12); err != nil {
						t.Fatalf("uint32: %v", err)
					}
					got16, err := Compute(labels16, tc.w, tc.h, tc.d, tc.count, opt)
					if err != nil {
						t.Fatal(err)
					}
					if err := compareTables(got16, got, 0); err != nil {
						t.Fatalf("uint16 differs from uint32: %v", err)
					}
					again, _ := Compute(labels32, tc.w, tc.h, tc.d, tc.count, opt)
					if err := compareTables(again, got, 0); err != nil {
						t.Fatalf("not deterministic: %v", err)
					}
				})
			}
		}
	}
}

// TestComputeOnlyAsked checks that what is not asked for stays zero, and
// that what is asked does not depend on what else is.
func TestComputeOnlyAsked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	w, h, d, count := 21, 17, 9, 20
	labels := randomLabels[uint32](rng, w, h, d, count, 0.8)
	full := Options{Intensity: randomIntensity(rng, imagegraph.Float32, w, h, d), Surface: true, Contacts: true, Spacing: [3]float64{1, 2, 3}}
	all, err := Compute(labels, w, h, d, count, full)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opt  func(*Options)
		keep func(c Component) Component
	}{
		{"none", func(o *Options) { o.Intensity, o.Surface, o.Contacts = nil, false, false }, func(c Component) Component {
			return Component{Size: c.Size, Min: c.Min, Max: c.Max, Centroid: c.Centroid, EqDiameter: c.EqDiameter}
		}},
		{"intensity", func(o *Options) { o.Surface, o.Contacts = false, false }, func(c Component) Component { c.Surface = 0; return c }},
		{"surface", func(o *Options) { o.Intensity, o.Contacts = nil, false }, func(c Component) Component {
			return Component{Size: c.Size, Min: c.Min, Max: c.Max, Centroid: c.Centroid, EqDiameter: c.EqDiameter, Surface: c.Surface}
		}},
		{"contacts", func(o *Options) { o.Intensity, o.Surface = nil, false }, func(c Component) Component {
			return Component{Size: c.Size, Min: c.Min, Max: c.Max, Centroid: c.Centroid, EqDiameter: c.EqDiameter}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := full
			tc.opt(&opt)
			got, err := Compute(labels, w, h, d, count, opt)
			if err != nil {
				t.Fatal(err)
			}
			want := &Table{}
			for _, c := range all.Components {
				want.Components = append(want.Components, tc.keep(c))
			}
			if opt.Contacts {
				want.Contacts = all.Contacts
			}
			if err := compareTables(got, want, 0); err != nil {
				t.Fatal(err)
			}
			if !opt.Contacts && got.Contacts != nil {
				t.Fatalf("contacts %v not asked for", got.Contacts)
			}
		})
	}
}

// TestComputeKnown checks hand-computed values on a small picture.
func TestComputeKnown(t *testing.T) {
	// 1 1 2
	// 1 0 2
	labels := []uint16{1, 1, 2, 1, 0, 2}
	vals := naiveRaster(3, 2, 1, []float64{1, 2, 3, 3, 100, 5})
	got, err := Compute(labels, 3, 2, 1, 2, Options{Intensity: vals, Surface: true, Contacts: true, Spacing: [3]float64{2, 3, 0}})
	if err != nil {
		t.Fatal(err)
	}
	one, two := got.Components[0], got.Components[1]
	// Label 1: 3 pixels; exposed edges across x: 4 (length 3 each),
	// across y: 4 (length 2 each).
	if one.Size != 3 || one.Surface != 4*3+4*2 || one.Sum != 6 || one.Mean != 2 || one.IMin != 1 || one.IMax != 3 {
		t.Errorf("label 1: %+v", one)
	}
	if math.Abs(one.Std-math.Sqrt(2.0/3)) > 1e-15 || one.WCentroid != [3]float64{2.0 / 6, 3.0 / 6, 0} {
		t.Errorf("label 1: std %v wcentroid %v", one.Std, one.WCentroid)
	}
	if math.Abs(one.EqDiameter-2*math.Sqrt(3*6/math.Pi)) > 1e-15 {
		t.Errorf("label 1: eq_diameter %v", one.EqDiameter)
	}
	if two.Size != 2 || two.Surface != 2*2*3+2*2 || two.Centroid != [3]float64{2, 0.5, 0} {
		t.Errorf("label 2: %+v", two)
	}
	// Labels 1 and 2 share one edge across x, of length 3.
	if len(got.Contacts) != 1 || got.Contacts[0] != (Contact{A: 1, B: 2, Faces: 1, Area: 3}) {
		t.Errorf("contacts %+v", got.Contacts)
	}
}

func TestComputeErrors(t *testing.T) {
	rgb, _ := imagegraph.NewRGB(2, 2, 1, make([]uint32, 4))
	small := naiveRaster(2, 1, 1, []uint8{1, 2})
	four := []uint32{0, 1, 2, 1}
	for _, tc := range []struct {
		name    string
		labels  []uint32
		w, h, d int
		count   int
		opt     Options
		want    string
	}{
		{"size", four, 3, 2, 1, 2, Options{}, "need 6 entries"},
		{"zero side", four, 0, 2, 1, 2, Options{}, "at least 1"},
		{"count", four, 2, 2, 1, 5, Options{}, "count 5"},
		{"negative count", four, 2, 2, 1, -1, Options{}, "count -1"},
		{"label above count", four, 2, 2, 1, 1, Options{}, "label 2 at index 2"},
		{"spacing", four, 2, 2, 1, 2, Options{Spacing: [3]float64{1, -1, 1}}, "spacing -1 along y"},
		{"nan spacing", four, 2, 2, 1, 2, Options{Spacing: [3]float64{math.NaN(), 1, 1}}, "along x"},
		{"scaling", four, 2, 2, 1, 2, Options{Slope: math.Inf(1)}, "not finite"},
		{"rgb", four, 2, 2, 1, 2, Options{Intensity: rgb}, "RGB"},
		{"intensity shape", four, 2, 2, 1, 2, Options{Intensity: small}, "does not match"},
		{"threads", four, 2, 2, 1, 2, Options{Threads: -1}, "threads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compute(tc.labels, tc.w, tc.h, tc.d, tc.count, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
		})
	}
	_, err := Compute([]uint32{0, 7, 9, 7}, 2, 2, 1, 3, Options{Threads: 2})
	var le *LabelError
	if !errors.As(err, &le) || le.Index != 1 || le.Label != 7 || le.Count != 3 {
		t.Fatalf("error %v, want the first label above the count", err)
	}
}

// TestComputeNaN checks that NaN samples make the sums NaN and are skipped
// by the extremes, and that a component of NaN alone has NaN extremes.
func TestComputeNaN(t *testing.T) {
	nan := float32(math.NaN())
	labels := []uint32{1, 1, 1, 1, 1, 2, 2, 0}
	for _, threads := range []int{1, 2, 4} {
		t.Run(fmt.Sprint("threads", threads), func(t *testing.T) {
			vals := naiveRaster(2, 4, 1, []float32{3, nan, -1, 7, 2, nan, nan, 5})
			opt := Options{Spacing: [3]float64{0.5, 3, 1}, Surface: true, Threads: threads}
			shape, err := Compute(labels, 2, 4, 1, 2, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Intensity = vals
			got, err := Compute(labels, 2, 4, 1, 2, opt)
			if err != nil {
				t.Fatal(err)
			}
			// The sums in floating point leave the shape as it is.
			for i, c := range got.Components {
				c.Sum, c.Mean, c.IMin, c.IMax, c.Std, c.WCentroid = 0, 0, 0, 0, 0, [3]float64{}
				if c != shape.Components[i] {
					t.Errorf("label %d: %+v, want the shape %+v", i+1, c, shape.Components[i])
				}
			}
			one, two := got.Components[0], got.Components[1]
			if !math.IsNaN(one.Sum) || !math.IsNaN(one.Mean) || !math.IsNaN(one.Std) || !math.IsNaN(one.WCentroid[0]) {
				t.Errorf("label 1: sums %v %v %v %v, want NaN", one.Sum, one.Mean, one.Std, one.WCentroid)
			}
			if one.IMin != -1 || one.IMax != 7 {
				t.Errorf("label 1: extremes %v %v, want -1 7", one.IMin, one.IMax)
			}
			if !math.IsNaN(two.IMin) || !math.IsNaN(two.IMax) {
				t.Errorf("label 2: extremes %v %v, want NaN", two.IMin, two.IMax)
			}
		})
	}
}

// TestComputeEmptyLabel checks the measurements of a label with no voxels.
func TestComputeEmptyLabel(t *testing.T) {
	got, err := Compute([]uint16{0, 2, 2, 0}, 4, 1, 1, 2, Options{Intensity: naiveRaster(4, 1, 1, []uint8{1, 2, 3, 4}), Surface: true, Contacts: true})
	if err != nil {
		t.Fatal(err)
	}
	want := Component{Min: [3]int{math.MaxInt, math.MaxInt, math.MaxInt}, Max: [3]int{-1, -1, -1}}
	if got.Components[0] != want {
		t.Fatalf("empty label 1: %+v, want %+v", got.Components[0], want)
	}
	if got.Components[1].Size != 2 || got.Components[1].Mean != 2.5 {
		t.Fatalf("label 2: %+v", got.Components[1])
	}
}

// TestContactsManyParts: contacts merged in several ranges of pairs (a
// worker with more than 4096 pairs) are the naive oracle's, in order, at
// every thread count.
func TestContactsManyParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	w, h, d, count := 60, 60, 20, 3000
	labels := randomLabels[uint32](rng, w, h, d, count, 0)
	want := naive(labels, w, h, d, count, Options{Spacing: [3]float64{1, 2, 3}, Contacts: true})
	if len(want.Contacts) < 4*4096 {
		t.Fatalf("only %d contacts", len(want.Contacts))
	}
	for _, threads := range []int{1, 2, 3, 5, 8} {
		t.Run(fmt.Sprintf("threads%d", threads), func(t *testing.T) {
			got, err := Compute(labels, w, h, d, count, Options{Spacing: [3]float64{1, 2, 3}, Contacts: true, Threads: threads})
			if err != nil {
				t.Fatal(err)
			}
			if err := compareTables(got, want, 1e-12); err != nil {
				t.Fatal(err)
			}
			for i, c := range got.Contacts {
				if c != want.Contacts[i] {
					t.Fatalf("contact %d: %+v, want %+v", i, c, want.Contacts[i])
				}
			}
		})
	}
}
