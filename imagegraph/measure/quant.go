package measure

import (
	"math"
	"math/big"
	"math/bits"
	"slices"
	"unsafe"

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

// provisionalMargin is how many bits below the scale of the largest |v|
// of its samples [scan.guess] takes for floating-point samples.
const provisionalMargin = 12

// guess sets s up for a first pass over the samples at a provisional
// scale, before their largest |v| is known: 0 for unscaled integers, whose
// every v is an integer; otherwise provisionalMargin below the scale of the
// largest |v| of 64 runs of 64 samples spread over them. False when one of
// those is NaN or infinite.
func (s *scan[L, T]) guess() bool {
	sc, ok := 0, true
	if T(1)/2 != 0 || s.scaled {
		m := 0.0
		for i := range 64 * 64 {
			m = max(m, math.Abs(s.value(s.vals[min(i/64*(len(s.vals)/64)+i%64, len(s.vals)-1)])))
		}
		sc, ok = QuantScale(m)
		sc -= provisionalMargin
	}
	s.quant, s.provisional, s.exact = newQuant(sc), ok, ok
	s.bounded = T(1)/2 == 0 && !s.scaled && unsafe.Sizeof(T(0)) <= 4
	s.lim = math.Ldexp(1, QuantBits-sc)
	s.limBits = math.Float32bits(float32(math.Inf(1)))
	if s.lim <= math.MaxFloat32 {
		s.limBits = math.Float32bits(float32(s.lim))
	}
	return ok
}

// quantOf returns the quantization of the samples from the largest |v| over all
// of them as [QuantScale] takes it, with threads goroutines; false when a
// sample is NaN or a v is infinite. Scaling is monotonic (each rounding is), so
// the largest |v| is that of the least or the greatest sample.
func (s *scan[L, T]) quantOf(threads int) (quant, bool) {
	if len(s.vals) == 0 {
		return newQuant(QuantBits), true
	}
	threads = parallel.ClampThreads(threads, len(s.vals)/(1<<16)+1)
	parts := make([]float64, threads)
	parallel.RangesIndexed(len(s.vals), threads, func(t, lo, hi int) {
		l, h, nan := sampleExtremes(s.vals[lo:hi])
		parts[t] = max(math.Abs(s.value(l)), math.Abs(s.value(h)))
		if nan {
			parts[t] = math.NaN()
		}
	})
	sc, ok := QuantScale(max(0, slices.Max(parts))) // NaN wherever one is
	return newQuant(sc), ok
}

// sampleExtremes returns the least and greatest of vals (not empty), and
// whether one is NaN (then the extremes mean nothing). It keeps four
// lanes; t - t is 0 but for NaN (and infinities, which the extremes show).
func sampleExtremes[T imagegraph.Sample](vals []T) (lo, hi T, nan bool) {
	lo0, hi0 := vals[0], vals[0]
	lo1, hi1, lo2, hi2, lo3, hi3 := lo0, hi0, lo0, hi0, lo0, hi0
	var z0, z1 T
	i := 0
	for ; i+4 <= len(vals); i += 4 {
		v := vals[i : i+4 : i+4]
		t0, t1, t2, t3 := v[0], v[1], v[2], v[3]
		if t0 < lo0 {
			lo0 = t0
		}
		if t0 > hi0 {
			hi0 = t0
		}
		if t1 < lo1 {
			lo1 = t1
		}
		if t1 > hi1 {
			hi1 = t1
		}
		if t2 < lo2 {
			lo2 = t2
		}
		if t2 > hi2 {
			hi2 = t2
		}
		if t3 < lo3 {
			lo3 = t3
		}
		if t3 > hi3 {
			hi3 = t3
		}
		z0 += (t0 - t0) + (t1 - t1)
		z1 += (t2 - t2) + (t3 - t3)
	}
	for ; i < len(vals); i++ {
		t := vals[i]
		lo0, hi0 = min(lo0, t), max(hi0, t)
		z0 += t - t
	}
	z := z0 + z1
	lo, hi = min(lo0, lo1, lo2, lo3), max(hi0, hi1, hi2, hi3)
	return lo, hi, z != z || lo != lo || hi != hi
}

// signedExtremes returns the extremes of the values of vals with mn and
// mx by the builtin min and max, which order -0 below +0 (plain
// comparisons take the first zero of either sign).
func signedExtremes[T imagegraph.Sample](vals []T, slope, inter float64, scaled bool, mn, mx float64) (float64, float64) {
	for _, t := range vals {
		v := float64(t)
		if scaled {
			v = float64(v*slope) + inter
		}
		mn, mx = min(mn, v), max(mx, v)
	}
	return mn, mx
}

// exactChunk is the most samples whose sums quantSums keeps in fixed
// width: Σq² below 2^127, and the sums of the halves of q below 2^63.
const exactChunk = 1 << (127 - 2*QuantBits)

// quantSums returns, for the samples q_i quantized by qt from the values
// v of vals (at most exactChunk of them; t·slope + inter, the product
// rounded, when scaled), Σq, Σ i·q_i and Σq², the extremes of the
// values with mn and mx, by plain comparisons (either zero where -0 and
// +0 tie), and whether a v·2^scale is not an integer (or NaN).
//
// It sums the high and low 32 bits of each q apart (q = h·2^32 + l, l
// unsigned), whose sums and sums of running sums p stay below 2^63 over
// exactChunk samples: plain integer additions, with no carry from one to
// the next; only Σq² is summed in two words. Σ i·q_i = n·Σq − p.
func quantSums[T imagegraph.Sample](vals []T, qt quant, slope, inter float64, scaled bool, mn, mx float64) (s, x, q2 wide128, _, _ float64, inexact bool) {
	f1, f2 := qt.f1, qt.f2
	var sh, sl, ph, pl int64
	var r0, r1, frac uint64
	for _, t := range vals {
		v := float64(t)
		if scaled {
			v = float64(v*slope) + inter
		}
		if v < mn {
			mn = v
		}
		if v > mx {
			mx = v
		}
		w := v * f1 * f2
		r := math.RoundToEven(w)
		frac |= math.Float64bits(w - r) // +0 where w is an integer
		q := int64(r)
		sh += q >> 32
		sl += q & (1<<32 - 1)
		ph += sh
		pl += sl
		m := q >> 63
		a := uint64((q ^ m) - m)
		hi, lo := bits.Mul64(a, a)
		var c uint64
		r0, c = bits.Add64(r0, lo, 0)
		r1 += hi + c
	}
	s = joinHalves(sh, sl)
	x = s.mul(len(vals))
	x.sub(joinHalves(ph, pl))
	return s, x, wide128{r0, r1}, mn, mx, frac != 0
}

// joinHalves returns h·2^32 + l as a 128-bit integer.
func joinHalves(h, l int64) wide128 {
	w := wide128{uint64(h) << 32, uint64(h >> 32)}
	w.add(wide128{uint64(l), uint64(l >> 63)})
	return w
}

// addExact adds to p the sums of the quantized samples q_i of a run from
// (x0, y, z): s = Σq, x = Σ i·q_i and q2 = Σq² (below 2^128).
func (p *partial) addExact(s, x, q2 wide128, x0, y, z int) {
	// Σ (x0+i)·q_i = x0·s + x.
	if x0 != 0 {
		x.add(s.mul(x0))
	}
	p.qx[0].add(x)
	p.qx[1].add(s.mul(y))
	p.qx[2].add(s.mul(z))
	p.q.add(s)
	var c uint64
	p.q2[0], c = bits.Add64(p.q2[0], q2.lo, 0)
	p.q2[1], c = bits.Add64(p.q2[1], q2.hi, c)
	p.q2[2] += c
}
