package measure

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// wide128 is a 128-bit two's complement integer. Its arithmetic is modulo
// 2^128, exact wherever the true result fits.
type wide128 struct{ lo, hi uint64 }

// add adds b to a.
func (a *wide128) add(b wide128) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, b.lo, 0)
	a.hi += b.hi + c
}

// sub subtracts b from a.
func (a *wide128) sub(b wide128) {
	var c uint64
	a.lo, c = bits.Sub64(a.lo, b.lo, 0)
	a.hi -= b.hi + c
}

// mul returns a·n, for n >= 0.
func (a wide128) mul(n int) wide128 {
	hi, lo := bits.Mul64(a.lo, uint64(n))
	return wide128{lo, hi + a.hi*uint64(n)}
}

// big returns a as a [big.Int].
func (a wide128) big() *big.Int { return IntWords(a.lo, a.hi) }

// wide192 is a 192-bit unsigned integer, least significant word first.
type wide192 [3]uint64

// add adds b to a.
func (a *wide192) add(b wide192) {
	var c uint64
	a[0], c = bits.Add64(a[0], b[0], 0)
	a[1], c = bits.Add64(a[1], b[1], c)
	a[2] += b[2] + c
}

// quant is the fixed-point form of the intensities that [Exact] sums: q =
// v·2^scale rounded to the nearest integer, ties to even, where v·2^scale
// is v·f1·f2 (each product exact: f1 and f2 are powers of two, f2 1
// unless 2^scale is beyond float64's range).
type quant struct {
	scale  int
	f1, f2 float64
}

// newQuant returns the quantization of scale s ([QuantScale]).
func newQuant(s int) quant {
	if s > 1000 {
		return quant{s, math.Ldexp(1, s-1000), math.Ldexp(1, 1000)}
	}
	return quant{s, math.Ldexp(1, s), 1}
}

// quantOf returns the quantization of the scaled samples vals (v = t·slope
// + inter when scaled, the product rounded), from the largest |v| over all
// of them as [QuantScale] takes it, with threads goroutines; false when a
// sample is NaN or a v is infinite. Scaling is monotonic (each rounding
// is), so the largest |v| is that of the least or the greatest sample.
func quantOf[T imagegraph.Sample](vals []T, slope, inter float64, scaled bool, threads int) (quant, bool) {
	if len(vals) == 0 {
		return newQuant(QuantBits), true
	}
	threads = parallel.ClampThreads(threads, len(vals)/(1<<16)+1)
	type extremes struct {
		lo, hi T
		nan    bool
	}
	parts := make([]extremes, threads)
	parallel.RangesIndexed(len(vals), threads, func(t, lo, hi int) {
		p := &parts[t]
		p.lo, p.hi, p.nan = sampleExtremes(vals[lo:hi])
	})
	lo, hi, nan := parts[0].lo, parts[0].hi, false
	for _, p := range parts {
		lo, hi, nan = min(lo, p.lo), max(hi, p.hi), nan || p.nan
	}
	if nan {
		return quant{}, false
	}
	value := func(t T) float64 {
		if scaled {
			return float64(float64(t)*slope) + inter
		}
		return float64(t)
	}
	s, ok := QuantScale(max(math.Abs(value(lo)), math.Abs(value(hi))))
	if !ok {
		return quant{}, false
	}
	return newQuant(s), true
}

// sampleExtremes returns the least and greatest of vals (not empty), and
// whether one is NaN (then the extremes mean nothing).
func sampleExtremes[T imagegraph.Sample](vals []T) (lo, hi T, nan bool) {
	lo, hi = vals[0], vals[0]
	for _, t := range vals {
		if t < lo {
			lo = t
		}
		if t > hi {
			hi = t
		}
		nan = nan || t != t
	}
	return lo, hi, nan
}

// exactRun holds the exact sums of the quantized samples q_i of a run:
// s = Σq, p = Σ_k Σ_{i<=k} q_i (the sum of the running sums, from which
// Σ i·q_i = n·s − p), q2 = Σq², and the least and greatest v with what came
// before.
type exactRun struct {
	s, p     wide128
	q2       wide192
	min, max float64
}

// sumExact returns the exact sums of vals, quantized by qt, scaled by
// slope and inter when scaled. mn and mx are the extremes so far.
func sumExact[T imagegraph.Sample](vals []T, qt quant, slope, inter float64, scaled bool, mn, mx float64) exactRun {
	var s0, s1, p0, p1, r0, r1, r2 uint64
	f1, f2 := qt.f1, qt.f2
	for _, t := range vals {
		v := float64(t)
		if scaled {
			v = float64(v*slope) + inter
		}
		mn, mx = min(mn, v), max(mx, v)
		q := int64(math.RoundToEven(v * f1 * f2))
		var c uint64
		s0, c = bits.Add64(s0, uint64(q), 0)
		s1 += uint64(q>>63) + c
		p0, c = bits.Add64(p0, s0, 0)
		p1 += s1 + c
		m := q >> 63
		a := uint64((q ^ m) - m)
		hi, lo := bits.Mul64(a, a)
		r0, c = bits.Add64(r0, lo, 0)
		r1, c = bits.Add64(r1, hi, c)
		r2 += c
	}
	return exactRun{wide128{s0, s1}, wide128{p0, p1}, wide192{r0, r1, r2}, mn, mx}
}

// add adds the sums of a run of n samples from (x0, y, z) to p.
func (r *exactRun) add(p *partial, n, x0, y, z int) {
	// Σ (x0+i)·q_i = x0·s + n·s − p.
	wx := r.s.mul(x0 + n)
	wx.sub(r.p)
	p.qx[0].add(wx)
	p.qx[1].add(r.s.mul(y))
	p.qx[2].add(r.s.mul(z))
	p.q.add(r.s)
	p.q2.add(r.q2)
	p.imin, p.imax = r.min, r.max
}
