package measure

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// provisionalHeld reports whether the provisional scale of [Compute]'s
// first pass holds for labels and the samples vals, as compute takes it.
func provisionalHeld[T imagegraph.Sample](labels []uint32, vals []T, w, h, count int, opt Options) bool {
	s := &scan[uint32, T]{labels: labels, vals: vals, w: w, h: h, count: count,
		slope: opt.Slope, inter: opt.Inter, scaled: opt.Slope != 1 || opt.Inter != 0}
	if !s.guess() {
		return false
	}
	return s.held(s.pass(3))
}

// TestComputeProvisional checks the first pass at a provisional scale and
// its fallback: whether the scale holds (for samples that the guess from a
// few thousand samples does not see, beyond its margin or not, inside a
// component or in the background; samples that do not quantize exactly;
// NaN; integers; scaled samples), and that either way the table is bit for
// bit that of the exact oracle at the scale of the largest |v| over all
// samples, at every thread count (within 1e-9 of the naive oracle for NaN).
func TestComputeProvisional(t *testing.T) {
	const w, h, d, count = 43, 30, 20, 30
	// Samples the guess does not look at: in a row's blocks of 8, which
	// the kernel reads, and past them.
	for _, at := range []int{2*w + 5, 2*w + 41} {
		t.Run(fmt.Sprintf("at%d", at%w), func(t *testing.T) { provisionalAt(t, w, h, d, count, at) })
	}
}

// provisionalAt runs TestComputeProvisional's cases with the sample the
// guess does not see at index at.
func provisionalAt(t *testing.T, w, h, d, count, at int) {
	rng := rand.New(rand.NewPCG(21, uint64(at)))
	uniform := func(i int) float32 { return rng.Float32() }
	with := func(v float32) func(i int) float32 {
		return func(i int) float32 {
			if i == at {
				return v
			}
			return rng.Float32()
		}
	}
	type intensity = func(labels []uint32) (*imagegraph.Raster, bool)
	float32s := func(f func(i int) float32, label uint32, slope, inter float64) intensity {
		return func(labels []uint32) (*imagegraph.Raster, bool) {
			labels[at] = label
			v := make([]float32, len(labels))
			for i := range v {
				v[i] = f(i)
			}
			opt := Options{Slope: slope, Inter: inter}
			CheckOptions(w, h, d, &opt)
			return naiveRaster(w, h, d, v), provisionalHeld(labels, v, w, h, count, opt)
		}
	}
	ints := func(f func(i int) int64, slope, inter float64) intensity {
		return func(labels []uint32) (*imagegraph.Raster, bool) {
			opt := Options{Slope: slope, Inter: inter}
			CheckOptions(w, h, d, &opt)
			if f(0) > math.MaxInt32 {
				v := make([]int64, len(labels))
				for i := range v {
					v[i] = f(i)
				}
				return naiveRaster(w, h, d, v), provisionalHeld(labels, v, w, h, count, opt)
			}
			v := make([]int32, len(labels))
			for i := range v {
				v[i] = int32(f(i))
			}
			return naiveRaster(w, h, d, v), provisionalHeld(labels, v, w, h, count, opt)
		}
	}
	for _, tc := range []struct {
		name         string
		f            intensity
		slope, inter float64
		held         bool
	}{
		{"uniform", float32s(uniform, 1, 0, 0), 0, 0, true},
		{"zeros", float32s(func(int) float32 { return 0 }, 1, 0, 0), 0, 0, true},
		{"within-margin-inside", float32s(with(1<<10), 1, 0, 0), 0, 0, true},
		{"within-margin-background", float32s(with(-1<<10), 0, 0, 0), 0, 0, true},
		{"beyond-margin-inside", float32s(with(1<<20), 2, 0, 0), 0, 0, false},
		{"beyond-margin-background", float32s(with(-1<<20), 0, 0, 0), 0, 0, false},
		{"huge-background", float32s(with(1e30), 0, 0, 0), 0, 0, false}, // the rest quantizes to 0
		{"inexact-inside", float32s(with(1.2345e-12), 3, 0, 0), 0, 0, false},
		{"inexact-background", float32s(with(1.2345e-12), 0, 0, 0), 0, 0, true},
		{"nan-background", float32s(with(float32(math.NaN())), 0, 0, 0), 0, 0, false},
		{"inf-background", float32s(with(float32(math.Inf(1))), 0, 0, 0), 0, 0, false},
		{"scaled-dyadic", float32s(uniform, 1, 0.5, -1024), 0.5, -1024, true},
		{"scaled-inexact", float32s(uniform, 1, 0.1, 0), 0.1, 0, false},
		{"int32", ints(func(int) int64 { return rng.Int64N(1<<32) - 1<<31 }, 0, 0), 0, 0, true},
		{"int32-scaled-inexact", ints(func(int) int64 { return rng.Int64N(1 << 16) }, 0.37, -12.5), 0.37, -12.5, false},
		{"int64-beyond-2^58", ints(func(int) int64 { return math.MaxInt64 - rng.Int64N(1<<62) }, 0, 0), 0, 0, false},
	} {
		labels := randomLabels[uint32](rng, w, h, d, count, 0.9)
		r, held := tc.f(labels)
		if held != tc.held {
			t.Errorf("%s: the provisional scale holds: %v, want %v", tc.name, held, tc.held)
		}
		opt := Options{Intensity: r, Slope: tc.slope, Inter: tc.inter, Spacing: [3]float64{1, 2, 0.5}, Surface: true}
		if err := CheckOptions(w, h, d, &opt); err != nil {
			t.Fatal(err)
		}
		var want *Table
		nan := tc.name == "nan-background" || tc.name == "inf-background"
		if nan {
			want = naive(labels, w, h, d, count, opt)
		} else {
			ex, _ := exactOracle(labels, w, h, d, count, opt)
			want = &Table{Components: make([]Component, count)}
			for k := range count {
				want.Components[k] = ratComponent(ex[k+1], opt, true)
			}
		}
		for threads := 1; threads <= 4; threads++ {
			t.Run(fmt.Sprintf("%s/threads%d", tc.name, threads), func(t *testing.T) {
				opt := opt
				opt.Threads = threads
				got, err := Compute(labels, w, h, d, count, opt)
				if err != nil {
					t.Fatal(err)
				}
				if nan {
					err = compareTables(got, want, 1e-9)
				} else {
					err = sameBits(got, want)
				}
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
