package measure

import (
	"math"
	"math/bits"
)

// wide256 is a 256-bit unsigned integer, least significant word first.
type wide256 [4]uint64

// quoFloat returns a/b·2^exp rounded to the nearest float64, ties to even,
// negative when neg (−0 for a zero a), for b > 0. It reports false, and
// leaves the rounding to big numbers, when the result is subnormal or
// beyond float64's range.
//
// The quotient is taken by long division in base 2^64 (Knuth's algorithm
// D with a two-word divisor): a shifted to 256 significant bits over b
// shifted to 128 has at least 128 bits, and its remainder tells whether
// anything is left beyond them.
func quoFloat(a wide256, b [2]uint64, neg bool, exp int) (float64, bool) {
	var sign uint64
	if neg {
		sign = 1 << 63
	}
	la := a.bitLen()
	if la == 0 {
		return math.Float64frombits(sign), true
	}
	// The divisor d1:d0 = b·2^sd, with its top bit set.
	var d1, d0 uint64
	var sd int
	if b[1] != 0 {
		sd = bits.LeadingZeros64(b[1])
		d1, d0 = b[1]<<sd|b[0]>>(64-sd), b[0]<<sd
	} else {
		sd = 64 + bits.LeadingZeros64(b[0])
		d1 = b[0] << (sd - 64)
	}
	// The dividend u = a·2^sn, in [2^255, 2^256), with a zero word above.
	sn := 256 - la
	var u [5]uint64
	w, s := sn/64, uint(sn%64)
	for i := 3; i >= w; i-- {
		u[i] = a[i-w] << s
		if s != 0 && i-w > 0 {
			u[i] |= a[i-w-1] >> (64 - s)
		}
	}
	var q [3]uint64
	for j := 2; j >= 0; j-- {
		u2, u1, u0 := u[j+2], u[j+1], u[j]
		// (u2, u1) < d1:d0, so the estimate qh is at most 2 above the digit.
		qh := uint64(math.MaxUint64)
		if u2 < d1 {
			qh, _ = bits.Div64(u2, u1, d1)
		}
		h0, p0 := bits.Mul64(qh, d0)
		h1, l1 := bits.Mul64(qh, d1)
		p1, c := bits.Add64(l1, h0, 0)
		p2 := h1 + c
		var borrow uint64
		u0, borrow = bits.Sub64(u0, p0, 0)
		u1, borrow = bits.Sub64(u1, p1, borrow)
		u2, borrow = bits.Sub64(u2, p2, borrow)
		for borrow != 0 { // negative: add the divisor back
			qh--
			var c uint64
			u0, c = bits.Add64(u0, d0, 0)
			u1, c = bits.Add64(u1, d1, c)
			u2, c = bits.Add64(u2, 0, c)
			borrow ^= c
		}
		u[j+2], u[j+1], u[j] = u2, u1, u0
		q[j] = qh
	}
	sticky := u[1]|u[0] != 0
	// The quotient's top 64 bits m: a/b = (m + a fraction)·2^e.
	var m uint64
	e := sd - sn + exp
	if q[2] != 0 {
		m = q[2]<<63 | q[1]>>1
		sticky = sticky || q[1]&1 != 0 || q[0] != 0
		e += 65
	} else {
		m = q[1]
		sticky = sticky || q[0] != 0
		e += 64
	}
	mant, rest := m>>11, m&(1<<11-1)
	e += 11
	if rest > 1<<10 || rest == 1<<10 && (sticky || mant&1 != 0) {
		mant++
		if mant == 1<<53 {
			mant >>= 1
			e++
		}
	}
	// mant·2^e, mant in [2^52, 2^53), is normal for a biased exponent
	// e + 52 + 1023 in [1, 2046].
	biased := e + 52 + 1023
	if biased < 1 || biased > 2046 {
		return 0, false
	}
	return math.Float64frombits(sign | uint64(biased)<<52 | mant&(1<<52-1)), true
}

// bitLen returns the number of bits of a (0 for 0).
func (a wide256) bitLen() int {
	for i := 3; i >= 0; i-- {
		if a[i] != 0 {
			return 64*i + bits.Len64(a[i])
		}
	}
	return 0
}

// abs returns |a| and whether a is negative.
func (a wide128) abs() (wide256, bool) {
	if int64(a.hi) >= 0 {
		return wide256{a.lo, a.hi}, false
	}
	lo, c := bits.Sub64(0, a.lo, 0)
	hi, _ := bits.Sub64(0, a.hi, c)
	return wide256{lo, hi}, true
}

// exactSums holds a component's exact intensity sums in fixed width, as
// [Exact] holds them in big numbers.
type exactSums struct {
	q  wide128
	q2 wide192
	qx [3]wide128
}

// stats sets c's intensity statistics from s for n > 0 voxels and the
// scale, as [Exact.Component] defines them. It reports false when one
// of them cannot be rounded in fixed width (c then partly set).
func (s *exactSums) stats(c *Component, n int64, scale int) bool {
	aq, negq := s.q.abs()
	var ok1, ok2, ok3 bool
	c.Sum, ok1 = quoFloat(aq, [2]uint64{1, 0}, negq, -scale)
	c.Mean, ok2 = quoFloat(aq, [2]uint64{uint64(n), 0}, negq, -scale)
	if !ok1 || !ok2 {
		return false
	}
	// n²·variance(q) = n·Σq² − (Σq)², exactly.
	v, ok := varianceWords(uint64(n), s.q2, aq)
	if !ok {
		return false
	}
	hi, lo := bits.Mul64(uint64(n), uint64(n))
	var vr float64
	if vr, ok3 = quoFloat(v, [2]uint64{lo, hi}, false, -2*scale); !ok3 {
		return false
	}
	c.Std = math.Sqrt(vr)
	for a := range 3 {
		w, negw := s.qx[a].abs()
		switch {
		case aq != wide256{}:
			f, ok := quoFloat(w, [2]uint64{aq[0], aq[1]}, negw != negq, 0)
			if !ok {
				return false
			}
			c.WCentroid[a] = f
		case w == wide256{}:
			c.WCentroid[a] = math.NaN()
		case negw:
			c.WCentroid[a] = math.Inf(-1)
		default:
			c.WCentroid[a] = math.Inf(1)
		}
	}
	return true
}

// varianceWords returns n·q2 − aq² (aq below 2^128), and false when it is
// negative.
func varianceWords(n uint64, q2 wide192, aq wide256) (wide256, bool) {
	var v wide256
	var carry uint64
	for i, w := range q2 {
		hi, lo := bits.Mul64(w, n)
		var c uint64
		v[i], c = bits.Add64(lo, carry, 0)
		carry = hi + c
	}
	v[3] = carry
	// aq² = (h·2^64 + l)² = h²·2^128 + 2·h·l·2^64 + l².
	h, l := aq[1], aq[0]
	var sq wide256
	sq[1], sq[0] = bits.Mul64(l, l)
	sq[3], sq[2] = bits.Mul64(h, h)
	mh, ml := bits.Mul64(h, l)
	for range 2 {
		var c uint64
		sq[1], c = bits.Add64(sq[1], ml, 0)
		sq[2], c = bits.Add64(sq[2], mh, c)
		sq[3] += c
	}
	var b uint64
	for i := range v {
		v[i], b = bits.Sub64(v[i], sq[i], b)
	}
	return v, b == 0
}
