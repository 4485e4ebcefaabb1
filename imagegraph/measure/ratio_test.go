package measure

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ratOracle returns a/b·2^exp rounded to the nearest float64 by big.Rat,
// negative when neg.
func ratOracle(a wide256, b [2]uint64, neg bool, exp int) float64 {
	r := new(big.Rat).SetFrac(UintWords(a[:]...), UintWords(b[:]...))
	p := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(max(exp, -exp))))
	if exp >= 0 {
		r.Mul(r, p)
	} else {
		r.Quo(r, p)
	}
	f, _ := r.Float64()
	if neg {
		f = -f
	}
	return f
}

// randomWords returns a random integer of exactly n bits (0 for n 0).
func randomWords(rng *rand.Rand, n int) wide256 {
	var a wide256
	for i := range a {
		a[i] = rng.Uint64()
	}
	for i := range a {
		switch {
		case 64*(i+1) <= n:
		case 64*i >= n:
			a[i] = 0
		default:
			a[i] &= 1<<(n-64*i) - 1
		}
	}
	if n > 0 {
		a[(n-1)/64] |= 1 << ((n - 1) % 64)
	}
	return a
}

// TestQuoFloat: fixed-width quotients are big.Rat's correctly rounded
// ones bit for bit, or refused only outside float64's normal range.
func TestQuoFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	type tc struct {
		a   wide256
		b   [2]uint64
		neg bool
		exp int
	}
	mulTo := func(m uint64, b [2]uint64, shift int) wide256 {
		x := new(big.Int).Mul(new(big.Int).SetUint64(m), UintWords(b[:]...))
		x.Lsh(x, uint(shift))
		var a wide256
		for i, w := range x.Bits() {
			a[i] = uint64(w)
		}
		return a
	}
	max128 := [2]uint64{math.MaxUint64, math.MaxUint64}
	cases := map[string][]tc{
		"zero":       {{wide256{}, [2]uint64{3, 0}, false, 0}, {wide256{}, [2]uint64{3, 0}, true, -70}},
		"one":        {{wide256{1}, [2]uint64{1, 0}, false, 0}, {wide256{1}, [2]uint64{1, 0}, true, -1074}, {wide256{1}, [2]uint64{1, 0}, false, -1022}},
		"widest":     {{wide256{math.MaxUint64, math.MaxUint64, math.MaxUint64, math.MaxUint64}, [2]uint64{1, 0}, false, -300}, {wide256{math.MaxUint64, math.MaxUint64, math.MaxUint64, math.MaxUint64}, max128, true, 0}, {wide256{1}, max128, false, 0}},
		"range ends": {{wide256{1}, [2]uint64{1, 0}, false, 1023}, {wide256{1}, [2]uint64{1, 0}, false, 1024}, {wide256{3}, [2]uint64{2, 0}, false, 1023}, {wide256{1<<53 - 1}, [2]uint64{1, 0}, false, 971}, {wide256{1<<54 - 1}, [2]uint64{1, 0}, false, 970}, {wide256{3}, [2]uint64{1, 0}, false, -1024}},
	}
	for range 300 {
		b := randomWords(rng, 1+rng.IntN(128))
		bb := [2]uint64{b[0], b[1]}
		m := rng.Uint64() >> 10 // 54 bits: odd m a midpoint of 53
		sh := rng.IntN(70)
		exp := rng.IntN(200) - 100
		cases["ties"] = append(cases["ties"], tc{mulTo(m|1, bb, sh), bb, rng.IntN(2) == 0, exp}, tc{mulTo(m&^1, bb, sh), bb, false, exp})
		near := mulTo(m|1, bb, sh)
		up, down := near, near
		up[0]++ // one above or below a midpoint (the oracle judges any wrap)
		down[0]--
		cases["near ties"] = append(cases["near ties"], tc{up, bb, false, exp}, tc{down, bb, true, exp})
	}
	for range 20000 {
		b := randomWords(rng, 1+rng.IntN(128))
		cases["random"] = append(cases["random"], tc{randomWords(rng, rng.IntN(256)), [2]uint64{b[0], b[1]}, rng.IntN(2) == 0, rng.IntN(2400) - 1200})
	}
	for name, cs := range cases {
		t.Run(name, func(t *testing.T) {
			refused := 0
			for _, c := range cs {
				got, ok := quoFloat(c.a, c.b, c.neg, c.exp)
				want := ratOracle(c.a, c.b, c.neg, c.exp)
				if !ok {
					refused++
					if a := math.Abs(want); a != 0 && a >= 0x1p-1022 && a <= math.MaxFloat64 && a != math.MaxFloat64 {
						t.Errorf("%x/%x·2^%d: refused, want %v", c.a, c.b, c.exp, want)
					}
					continue
				}
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("%x/%x·2^%d neg %v = %v, want %v", c.a, c.b, c.exp, c.neg, got, want)
				}
			}
			if refused == len(cs) && name != "range ends" {
				t.Errorf("all %d refused", refused)
			}
		})
	}
}

// TestExactSumsStats: the fixed-width statistics of random sums are those
// of the big numbers bit for bit, including sums that make no
// variance (which go to big numbers).
func TestExactSumsStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tc := range []struct {
		name  string
		n     int
		bound int64 // |q| below
		xmax  int
	}{
		{"one voxel", 1, 1 << 58, 1000},
		{"few small", 5, 7, 3},
		{"many large", 3000, 1 << 58, 1 << 20},
		{"signed zero", 4, 2, 1},
		{"constant", 50, 1, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 200 {
				e := Exact{Size: int64(tc.n), Scale: rng.IntN(1200) - 200, Q: new(big.Int), Q2: new(big.Int),
					QX: [3]*big.Int{new(big.Int), new(big.Int), new(big.Int)}}
				for range tc.n {
					q := big.NewInt(rng.Int64N(2*tc.bound+1) - tc.bound)
					if tc.name == "constant" {
						q.SetInt64(-3)
					}
					e.Q.Add(e.Q, q)
					e.Q2.Add(e.Q2, new(big.Int).Mul(q, q))
					for a := range 3 {
						x := big.NewInt(int64(rng.IntN(tc.xmax)))
						if tc.name == "signed zero" && a == 1 {
							x.SetInt64(0)
						}
						e.QX[a].Add(e.QX[a], x.Mul(x, q))
					}
				}
				sums := e.words()
				if sums == nil {
					t.Fatal("sums do not fit")
				}
				opt := Options{Intensity: naiveRaster(1, 1, 1, []float32{0}), Spacing: [3]float64{1, 1, 1}}
				got := e.Component(opt, true)
				if err := sameBits(&Table{Components: []Component{got}}, &Table{Components: []Component{ratComponent(e, opt, true)}}); err != nil {
					t.Fatalf("scale %d, Q %v, Q2 %v: %v", e.Scale, e.Q, e.Q2, err)
				}
			}
		})
	}
}

// ratComponent is e.Component with the intensity statistics taken
// independently, as big.Rat quotients rounded once (a zero weighted
// centroid negative where Σq is).
func ratComponent(e Exact, opt Options, is3D bool) Component {
	c := e.Component(Options{Spacing: opt.Spacing, Surface: opt.Surface}, is3D)
	if opt.Intensity == nil || e.Size == 0 {
		return c
	}
	pow := func(s int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(s)) }
	quo := func(a, b *big.Int, s int) float64 { // a/b·2^-s
		r := new(big.Rat).SetFrac(new(big.Int).Abs(a), new(big.Int).Abs(b))
		if s >= 0 {
			r.Quo(r, new(big.Rat).SetInt(pow(s)))
		} else {
			r.Mul(r, new(big.Rat).SetInt(pow(-s)))
		}
		f, _ := r.Float64()
		if a.Sign()*b.Sign() < 0 || a.Sign() == 0 && b.Sign() < 0 {
			f = -f
		}
		return f
	}
	n := big.NewInt(e.Size)
	c.IMin, c.IMax = e.IMin, e.IMax
	c.Sum = quo(e.Q, big.NewInt(1), e.Scale)
	c.Mean = quo(e.Q, n, e.Scale)
	v := new(big.Int).Sub(new(big.Int).Mul(n, e.Q2), new(big.Int).Mul(e.Q, e.Q))
	c.Std = math.Sqrt(quo(v, new(big.Int).Mul(n, n), 2*e.Scale))
	for a := range 3 {
		switch w := e.QX[a]; {
		case e.Q.Sign() != 0:
			c.WCentroid[a] = quo(w, e.Q, 0)
		case w.Sign() == 0:
			c.WCentroid[a] = math.NaN()
		default:
			c.WCentroid[a] = math.Inf(w.Sign())
		}
	}
	return c
}
