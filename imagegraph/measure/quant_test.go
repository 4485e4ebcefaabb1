package measure

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// sameBits reports the first component or contact of got that is not
// bit for bit want's.
func sameBits(got, want *Table) error {
	if len(got.Components) != len(want.Components) || len(got.Contacts) != len(want.Contacts) {
		return fmt.Errorf("%d components, %d contacts, want %d, %d", len(got.Components), len(got.Contacts), len(want.Components), len(want.Contacts))
	}
	for k := range got.Components {
		// %v prints the shortest decimal that reads back to the same
		// float64, and -0 as -0.
		if g, w := fmt.Sprintf("%+v", got.Components[k]), fmt.Sprintf("%+v", want.Components[k]); g != w {
			return fmt.Errorf("label %d:\n got %s\nwant %s", k+1, g, w)
		}
	}
	for i := range got.Contacts {
		if g, w := fmt.Sprintf("%+v", got.Contacts[i]), fmt.Sprintf("%+v", want.Contacts[i]); g != w {
			return fmt.Errorf("contact %d: %s, want %s", i, g, w)
		}
	}
	return nil
}

// samplesOf returns the raster of n samples of type T drawn by f.
func samplesOf[T imagegraph.Sample](w, h, d int, f func(i int) T) *imagegraph.Raster {
	v := make([]T, w*h*d)
	for i := range v {
		v[i] = f(i)
	}
	return naiveRaster(w, h, d, v)
}

// TestComputeExact checks that the intensity statistics are the
// [Exact.Component]s of the exact sums of the quantized samples, taken by
// an independent big-integer oracle, bit for bit at every thread count,
// and within 1e-9 relative of the floating-point naive oracle.
func TestComputeExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	type gen func(w, h, d int) *imagegraph.Raster
	intensities := []struct {
		name         string
		f            gen
		slope, inter float64
	}{
		{"float32", func(w, h, d int) *imagegraph.Raster { return randomIntensity(rng, imagegraph.Float32, w, h, d) }, 0, 0},
		{"float64-offset", func(w, h, d int) *imagegraph.Raster { return randomIntensity(rng, imagegraph.Float64, w, h, d) }, 0, 0},
		{"int16-scaled", func(w, h, d int) *imagegraph.Raster { return randomIntensity(rng, imagegraph.Int16, w, h, d) }, 0.37, -12.5},
		{"uint8-negative-slope", func(w, h, d int) *imagegraph.Raster { return randomIntensity(rng, imagegraph.Uint8, w, h, d) }, -3, 1000},
		{"uint64-large", func(w, h, d int) *imagegraph.Raster {
			return samplesOf(w, h, d, func(int) uint64 { return rng.Uint64() })
		}, 0, 0},
		{"int64-signed", func(w, h, d int) *imagegraph.Raster {
			return samplesOf(w, h, d, func(int) int64 { return rng.Int64() - math.MaxInt64/2 })
		}, 0, 0},
		{"float64-wide-range", func(w, h, d int) *imagegraph.Raster {
			return samplesOf(w, h, d, func(int) float64 { return math.Ldexp(rng.NormFloat64(), rng.IntN(120)-60) })
		}, 0, 0},
		{"float64-huge", func(w, h, d int) *imagegraph.Raster {
			return samplesOf(w, h, d, func(int) float64 { return 1e300 * rng.NormFloat64() })
		}, 0, 0},
		{"float64-subnormal", func(w, h, d int) *imagegraph.Raster {
			return samplesOf(w, h, d, func(int) float64 { return math.Ldexp(float64(rng.IntN(2000)-1000), -1074) })
		}, 0, 0},
		{"float32-extremes", func(w, h, d int) *imagegraph.Raster {
			// The largest float32s of both signs beside subnormals and
			// small integers: runs of the row kernel with every kind.
			return samplesOf(w, h, d, func(int) float32 {
				switch rng.IntN(4) {
				case 0:
					return math.MaxFloat32 * float32(rng.IntN(2)*2-1)
				case 1:
					return math.Float32frombits(uint32(rng.IntN(1<<23)) | uint32(rng.IntN(2))<<31)
				}
				return float32(rng.IntN(7) - 3)
			})
		}, 0, 0},
		{"float32-negative-ties", func(w, h, d int) *imagegraph.Raster {
			// Halves of the quantum, negative: q rounds them to even.
			return samplesOf(w, h, d, func(i int) float32 {
				if i == 0 {
					return -1 << 20
				}
				return -float32(rng.IntN(16)) * (1 << 20) / (1 << 58)
			})
		}, 0, 0},
		{"signed-zeros", func(w, h, d int) *imagegraph.Raster {
			return samplesOf(w, h, d, func(int) float32 { return float32(math.Copysign(0, float64(rng.IntN(2)-1))) })
		}, 0, 0},
		{"int8-minus-zero-inter", func(w, h, d int) *imagegraph.Raster {
			return samplesOf(w, h, d, func(int) int8 { return int8(rng.IntN(3) - 1) })
		}, -1, math.Copysign(0, -1)},
		{"zeros-and-ties", func(w, h, d int) *imagegraph.Raster {
			// Halves below the quantum: q rounds them to even.
			return samplesOf(w, h, d, func(i int) float64 {
				if i == 0 {
					return 1 << 57
				}
				return float64(rng.IntN(8)) / 2
			})
		}, 0, 0},
	}
	shapes := []struct {
		name           string
		w, h, d, count int
		keep           float64
	}{
		{"2d-runs", 37, 23, 1, 9, 0.8},
		{"3d-runs", 17, 13, 11, 12, 0.85},
		{"3d-noise", 9, 8, 7, 300, 0},
		{"3d-wide", 700, 3, 4, 25, 0.97},
		{"one-label", 40, 6, 5, 1, 1},
		{"2d-long-runs", 4500, 3, 1, 2, 0.9995},            // runs beyond exactChunk
		{"2d-runs-past-the-kernel", 3000, 4, 1, 20, 0.985}, // runs the kernel takes in pieces
	}
	for _, sh := range shapes {
		for _, in := range intensities {
			labels := randomLabels[uint32](rng, sh.w, sh.h, sh.d, sh.count, sh.keep)
			opt := Options{Intensity: in.f(sh.w, sh.h, sh.d), Slope: in.slope, Inter: in.inter,
				Spacing: [3]float64{0.5, 1, 2}, Surface: true, Contacts: true}
			if err := CheckOptions(sh.w, sh.h, sh.d, &opt); err != nil {
				t.Fatal(err)
			}
			ex, faces := exactOracle(labels, sh.w, sh.h, sh.d, sh.count, opt)
			want := &Table{Components: make([]Component, sh.count), Contacts: []Contact{}}
			for k := range sh.count {
				want.Components[k] = ratComponent(ex[k+1], opt, sh.d > 1)
			}
			for _, c := range naive(labels, sh.w, sh.h, sh.d, sh.count, Options{Spacing: opt.Spacing, Contacts: true}).Contacts {
				want.Contacts = append(want.Contacts, NewContact(c.A, c.B, *faces[[2]uint32{c.A, c.B}], opt.Spacing, sh.d > 1))
			}
			float := naive(labels, sh.w, sh.h, sh.d, sh.count, opt)
			for threads := 1; threads <= 8; threads++ {
				t.Run(fmt.Sprintf("%s/%s/threads%d", sh.name, in.name, threads), func(t *testing.T) {
					opt := opt
					opt.Threads = threads
					got, err := Compute(labels, sh.w, sh.h, sh.d, sh.count, opt)
					if err != nil {
						t.Fatal(err)
					}
					if err := sameBits(got, want); err != nil {
						t.Fatalf("not the exact oracle's: %v", err)
					}
					// Not where samples lie far below the largest: the
					// float oracle rounds them away beside it, and the
					// quantization to 2^-58 of the largest rounds the
					// smallest to 0 (as the device's does).
					if in.name != "float64-subnormal" && in.name != "zeros-and-ties" && in.name != "float64-wide-range" &&
						in.name != "float32-extremes" && in.name != "float32-negative-ties" {
						if err := compareTables(got, float, 1e-9); err != nil {
							t.Fatalf("not the float oracle's: %v", err)
						}
					}
				})
			}
		}
	}
}

// TestComputeNotFinite checks that a NaN or infinite sample, or a scaling
// that overflows, falls back to floating-point sums, the same at every
// thread count.
func TestComputeNotFinite(t *testing.T) {
	labels := []uint32{1, 1, 1, 1, 2, 2, 2, 0}
	for _, tc := range []struct {
		name         string
		vals         []float64
		slope        float64
		sum1, sum2   float64
		imin1, imax2 float64
	}{
		{"inf", []float64{1, math.Inf(1), 2, 3, 4, 5, 6, 7}, 1, math.Inf(1), 15, 1, 6},
		{"minus-inf-background", []float64{1, 2, 3, 4, 5, 6, 7, math.Inf(-1)}, 1, 10, 18, 1, 7},
		{"scaling-overflows", []float64{1, 2, 3, 4, 5, 6, 7, 1e308}, 1e10, 1e11, 1.8e11, 1e10, 7e10},
	} {
		for threads := 1; threads <= 4; threads++ {
			t.Run(fmt.Sprintf("%s/threads%d", tc.name, threads), func(t *testing.T) {
				opt := Options{Intensity: naiveRaster(2, 4, 1, tc.vals), Slope: tc.slope, Threads: threads}
				got, err := Compute(labels, 2, 4, 1, 2, opt)
				if err != nil {
					t.Fatal(err)
				}
				one, two := got.Components[0], got.Components[1]
				if one.Sum != tc.sum1 || two.Sum != tc.sum2 || one.IMin != tc.imin1 || two.IMax != tc.imax2 {
					t.Fatalf("sums %v %v, extremes %v %v; want %v %v, %v %v", one.Sum, two.Sum, one.IMin, two.IMax, tc.sum1, tc.sum2, tc.imin1, tc.imax2)
				}
			})
		}
	}
}

// TestQuantScale checks the scale against its definition.
func TestQuantScale(t *testing.T) {
	for _, tc := range []struct {
		absmax float64
		scale  int
		ok     bool
	}{
		{0, 58, true},
		{1, 57, true},
		{0.75, 58, true},
		{-3, 56, true},
		{1 << 57, 0, true},
		{1<<58 - 32, 0, true}, // the float64 below 2^58
		{1 << 58, -1, true},
		{math.SmallestNonzeroFloat64, 58 + 1073, true},
		{math.MaxFloat64, 58 - 1024, true},
		{math.Inf(1), 0, false},
		{math.NaN(), 0, false},
	} {
		t.Run(fmt.Sprint(tc.absmax), func(t *testing.T) {
			s, ok := QuantScale(tc.absmax)
			if s != tc.scale || ok != tc.ok {
				t.Fatalf("QuantScale(%v) = %d, %v; want %d, %v", tc.absmax, s, ok, tc.scale, tc.ok)
			}
			if ok && tc.absmax != 0 {
				// absmax·2^s lies in [2^57, 2^58).
				m := new(big.Float).SetMantExp(big.NewFloat(math.Abs(tc.absmax)), s)
				lo, hi := new(big.Float).SetMantExp(big.NewFloat(1), 57), new(big.Float).SetMantExp(big.NewFloat(1), 58)
				if m.Cmp(lo) < 0 || m.Cmp(hi) >= 0 {
					t.Fatalf("|%v|·2^%d = %v, not in [2^57, 2^58)", tc.absmax, s, m)
				}
			}
		})
	}
}

// TestWide checks the wide integers' arithmetic against big.Int.
func TestWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	two128 := new(big.Int).Lsh(big.NewInt(1), 128)
	wrap := func(x *big.Int) *big.Int { // to 128-bit two's complement
		x = new(big.Int).Mod(x, two128)
		if x.Bit(127) != 0 {
			x.Sub(x, two128)
		}
		return x
	}
	for i := range 2000 {
		a := wide128{rng.Uint64(), rng.Uint64() >> uint(rng.IntN(64))}
		if i%2 == 1 {
			a = wide128{rng.Uint64(), ^(rng.Uint64() >> uint(rng.IntN(64)))}
		}
		b := wide128{rng.Uint64(), rng.Uint64()}
		n := rng.IntN(1 << 31)
		sum, diff := a, a
		sum.add(b)
		diff.sub(b)
		for _, c := range []struct {
			name      string
			got, want *big.Int
		}{
			{"add", sum.big(), wrap(new(big.Int).Add(a.big(), b.big()))},
			{"sub", diff.big(), wrap(new(big.Int).Sub(a.big(), b.big()))},
			{"mul", a.mul(n).big(), wrap(new(big.Int).Mul(a.big(), big.NewInt(int64(n))))},
		} {
			if c.got.Cmp(c.want) != 0 {
				t.Fatalf("%s of %v, %v, %d: %v, want %v", c.name, a, b, n, c.got, c.want)
			}
		}
		x := wide192{rng.Uint64(), rng.Uint64(), rng.Uint64() >> 2}
		y := wide192{rng.Uint64(), rng.Uint64(), rng.Uint64() >> 2}
		want := new(big.Int).Add(UintWords(x[:]...), UintWords(y[:]...))
		x.add(y)
		if got := UintWords(x[:]...); got.Cmp(want) != 0 {
			t.Fatalf("192-bit add: %v, want %v", got, want)
		}
	}
}

// TestExtremes checks sampleExtremes on floating-point samples against
// plain comparisons: the least and greatest value (either zero where -0
// and +0 tie), and whether one is NaN or infinite.
func TestExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), math.SmallestNonzeroFloat64, -math.MaxFloat64}
	for i := range 400 {
		n := 1 + rng.IntN(9)
		if i%2 == 1 {
			n = 1 + rng.IntN(100) // past the blocks of four
		}
		v := make([]float64, n)
		for j := range v {
			v[j] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(40)-20)
			if rng.IntN(4) == 0 {
				v[j] = specials[rng.IntN(len(specials))]
			}
		}
		v32 := make([]float32, n)
		for j := range v {
			v32[j] = float32(v[j])
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			checkExtremes(t, v)
			checkExtremes(t, v32)
		})
	}
}

// checkExtremes checks sampleExtremes(v) against plain comparisons.
func checkExtremes[T float32 | float64](t *testing.T, v []T) {
	t.Helper()
	wantBad, lo, hi := false, math.Inf(1), math.Inf(-1)
	for _, x := range v {
		f := float64(x)
		wantBad = wantBad || math.IsNaN(f) || math.IsInf(f, 0)
		if !math.IsNaN(f) {
			lo, hi = min(lo, f), max(hi, f)
		}
	}
	gl, gh, bad := sampleExtremes(v)
	if bad != wantBad || !bad && (float64(gl) != lo || float64(gh) != hi) {
		t.Fatalf("%v: %v %v %v, want %v %v %v", v, gl, gh, bad, lo, hi, wantBad)
	}
}
