package measure

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// roundEvenBig returns v·2^s rounded to the nearest integer, ties to even,
// in big numbers.
func roundEvenBig(v float64, s int) *big.Int {
	x := new(big.Float).SetFloat64(v)
	x.SetMantExp(x, s)
	i, _ := x.Int(nil) // toward zero
	frac := new(big.Float).Sub(x, new(big.Float).SetInt(i))
	c := new(big.Float).Abs(frac).Cmp(big.NewFloat(0.5))
	if c > 0 || c == 0 && i.Bit(0) == 1 {
		if frac.Sign() > 0 {
			i.Add(i, big.NewInt(1))
		} else {
			i.Sub(i, big.NewInt(1))
		}
	}
	return i
}

// TestQuantSums checks quantSums, the scalar sums of a run, on float32
// samples against big-integer sums of the quantized samples, on runs of
// every length from 0 to 300, for samples of both signs, ties, signed
// zeros, subnormals and the largest float32s, at the engine's scale and at
// others.
func TestQuantSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gens := []struct {
		name string
		f    func(i int) float32
	}{
		{"uniform", func(int) float32 { return rng.Float32() }},
		{"signed", func(int) float32 { return float32(rng.NormFloat64() * 1000) }},
		{"negative", func(int) float32 { return -rng.Float32() - 1 }},
		{"ties", func(int) float32 { return float32(rng.IntN(9)-4) / 2 }},
		{"signed-zeros", func(int) float32 { return float32(math.Copysign(0, float64(rng.IntN(2)*2-1))) }},
		{"subnormal", func(int) float32 { return math.Float32frombits(uint32(rng.IntN(1<<23)) | uint32(rng.IntN(2))<<31) }},
		{"huge", func(int) float32 { return float32(rng.Float64()*2-1) * math.MaxFloat32 }},
		{"extreme-mix", func(i int) float32 {
			switch rng.IntN(4) {
			case 0:
				return math.MaxFloat32
			case 1:
				return -math.MaxFloat32
			case 2:
				return math.SmallestNonzeroFloat32
			}
			return float32(rng.NormFloat64())
		}},
	}
	for _, g := range gens {
		vals := make([]float32, 300)
		for i := range vals {
			vals[i] = g.f(i)
		}
		largest := 0.0
		for _, v := range vals {
			largest = max(largest, math.Abs(float64(v)))
		}
		s0, ok := QuantScale(largest)
		if !ok {
			t.Fatalf("%s: no scale", g.name)
		}
		for _, ds := range []int{0, -1, -7, -40} {
			s := s0 + ds
			qt := newQuant(s)
			for n := 0; n <= len(vals); n++ {
				if ds != 0 && n%7 != 0 && n > 20 {
					continue
				}
				t.Run(fmt.Sprintf("%s/scale%+d/n%d", g.name, ds, n), func(t *testing.T) {
					c := vals[:n]
					ws, wx, wq2 := new(big.Int), new(big.Int), new(big.Int)
					wmn, wmx := math.Inf(1), math.Inf(-1)
					wInexact := false
					for i, v := range c {
						x := new(big.Float).SetFloat64(float64(v))
						wInexact = wInexact || !x.SetMantExp(x, s).IsInt()
						q := roundEvenBig(float64(v), s)
						ws.Add(ws, q)
						wx.Add(wx, new(big.Int).Mul(q, big.NewInt(int64(i))))
						wq2.Add(wq2, new(big.Int).Mul(q, q))
						wmn, wmx = min(wmn, float64(v)), max(wmx, float64(v))
					}
					gs, gx, gq2, gmn, gmx, inexact := quantSums(c, qt, 1, 0, false, math.Inf(1), math.Inf(-1))
					if inexact != wInexact {
						t.Fatalf("inexact %v, want %v", inexact, wInexact)
					}
					if gs.big().Cmp(ws) != 0 || gx.big().Cmp(wx) != 0 {
						t.Fatalf("Σq %v, Σi·q %v, want %v, %v", gs.big(), gx.big(), ws, wx)
					}
					if got := IntWords(gq2.lo, gq2.hi); got.Cmp(wq2) != 0 {
						t.Fatalf("Σq² %v, want %v", got, wq2)
					}
					// Plain comparisons may keep either zero.
					if gmn != wmn || gmx != wmx {
						t.Fatalf("extremes %v, %v, want %v, %v", gmn, gmx, wmn, wmx)
					}
				})
			}
		}
	}
}

// TestQuantRuns checks the row kernel against quantSums: a row cut
// into runs of every length it takes (1 to maxLaneSamples), from every
// offset modulo 4, for the samples of TestQuantSums' kinds, each run's Σq,
// Σ x·q_x (x from the row's start), Σq² and extremes; and runs that end at
// maxRowIndex, the widest row the kernel takes, where x·q is largest.
func TestQuantRuns(t *testing.T) {
	if !hasQuantRuns32 {
		t.Skip("no row kernel here")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	kinds := map[string]func() float32{
		"uniform":  func() float32 { return rng.Float32() },
		"signed":   func() float32 { return float32(rng.NormFloat64() * 1e6) },
		"ties":     func() float32 { return float32(rng.IntN(9)-4) / 2 },
		"huge":     func() float32 { return float32(rng.Float64()*2-1) * math.MaxFloat32 },
		"negative": func() float32 { return -math.MaxFloat32 + float32(rng.IntN(3))*1e30 },
		"subnormal": func() float32 {
			return math.Float32frombits(uint32(rng.IntN(1<<23)) | uint32(rng.IntN(2))<<31)
		},
	}
	for name, f := range kinds {
		var runs []int32
		x := rng.IntN(4)
		for n := 1; n <= maxLaneSamples; n++ {
			runs = append(runs, int32(x), int32(n))
			x += n + rng.IntN(3)
		}
		row := make([]float32, x)
		for i := range row {
			row[i] = f()
		}
		checkQuantRuns(t, name, row, runs)
		if testing.Short() {
			continue
		}
		// The far end of the widest row: only its last pages are touched.
		far := make([]float32, maxRowIndex)
		runs = runs[:0]
		x = maxRowIndex
		for n := maxLaneSamples; n >= 4; n = n*2/3 - rng.IntN(2) {
			x -= n
			runs = append(runs, int32(x), int32(n))
		}
		for i := x; i < maxRowIndex; i++ {
			far[i] = f()
		}
		checkQuantRuns(t, name+"/far", far, runs)
	}
}

// checkQuantRuns checks the row kernel's sums of runs (pairs of start and
// length) of row against quantSums, at the scale of the row's largest |v|
// and at two below it.
func checkQuantRuns(t *testing.T, name string, row []float32, runs []int32) {
	t.Helper()
	largest := 0.0
	for _, v := range row {
		largest = max(largest, math.Abs(float64(v)))
	}
	for _, ds := range []int{0, -3, -30} {
		sc, _ := QuantScale(largest)
		qt := newQuant(sc + ds)
		out := make([]runQuant, len(runs)/2)
		inexact := quantRuns32AVX2(&row[0], &runs[0], len(out), qt.f1, &out[0], 0) != 0
		wantInexact := false
		for k := range out {
			x0, n := int(runs[2*k]), int(runs[2*k+1])
			ws, wx, wq2, wmn, wmx, wi := quantSums(row[x0:x0+n], qt, 1, 0, false, math.Inf(1), math.Inf(-1))
			wantInexact = wantInexact || wi
			wx.add(ws.mul(x0))
			gs, gx, gq2 := out[k].fold(x0, n)
			if gs != ws || gx != wx || gq2 != wq2 || out[k].mn != wmn || out[k].mx != wmx {
				t.Fatalf("%s, scale %+d, run of %d from %d: sums %v %v %v, extremes %v %v; want %v %v %v, %v %v",
					name, ds, n, x0, gs.big(), gx.big(), gq2.big(), out[k].mn, out[k].mx, ws.big(), wx.big(), wq2.big(), wmn, wmx)
			}
		}
		if inexact != wantInexact {
			t.Fatalf("%s, scale %+d: inexact %v, want %v", name, ds, inexact, wantInexact)
		}
	}
}

// TestAbsMax32 checks the kernel's largest |v| bits of blocks of eight
// float32 samples against a plain loop, for every number of blocks up to 5
// and every position of one large, NaN, infinite, negative-zero or
// subnormal sample among small ones of both signs.
func TestAbsMax32(t *testing.T) {
	if !hasQuantRuns32 {
		t.Skip("no AVX2 kernel")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float32{-3e38, 3e38, float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1)),
		float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -2.5}
	for blocks := 0; blocks <= 5; blocks++ {
		n := 8 * blocks
		for _, sp := range special {
			for at := range max(n, 1) {
				v := make([]float32, n+1) // one more: the kernel must not read it
				for i := range v {
					v[i] = (rng.Float32() - 0.5) / 1024
				}
				v[n] = float32(math.Inf(1))
				if n > 0 {
					v[at] = sp
				}
				want := uint32(0)
				for _, s := range v[:n] {
					want = max(want, math.Float32bits(s)&^(1<<31))
				}
				if got := absMax32(&v[0], blocks); got != want {
					t.Fatalf("%d blocks, %g at %d: got %#x, want %#x", blocks, sp, at, got, want)
				}
			}
		}
	}
}
