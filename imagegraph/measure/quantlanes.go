package measure

import "unsafe"

// quantLanes holds the sums of quantLanes32AVX2 over n samples q_i, each
// quantized as q = h·2^29 + l with 0 <= l < 2^29, in four lanes whose sums
// fit 64 bits: sh, sl = Σh, Σl; xh, xl = Σ i·h, Σ i·l; Σh² = h2hi·2^32 +
// h2lo, Σh·l + 2^65 = hlhi·2^32 + hllo, Σl² = l2hi·2^32 + l2lo (four
// lanes each); mn and mx the least and greatest sample.
type quantLanes struct {
	sh, sl, xh, xl                     [4]int64
	h2hi, h2lo, hlhi, hllo, l2hi, l2lo [4]int64
	mn, mx                             float64
}

// maxLaneSamples is the most samples that one call of quantLanes32AVX2
// sums: |h| <= 2^29 and l < 2^29, so each of h², h·l and l² is at most
// 2^58 in magnitude, and the 32 of a lane (31 blocks and the tail) stay
// below 2^63.
const maxLaneSamples = 4*31 + 3

// The kernel writes the lanes at fixed offsets: these fail to compile
// where the layout differs.
var (
	_ [unsafe.Offsetof(quantLanes{}.mn) - 320]struct{}
	_ [320 - unsafe.Offsetof(quantLanes{}.mn)]struct{}
	_ [unsafe.Sizeof(quantLanes{}) - 336]struct{}
	_ [336 - unsafe.Sizeof(quantLanes{})]struct{}
)

// sum4 returns the sum of four lanes.
func sum4(a *[4]int64) int64 { return a[0] + a[1] + a[2] + a[3] }

// fold returns Σq, Σ i·q_i and Σq² of the samples whose lanes l holds.
func (l *quantLanes) fold() (s, x, q2 wide128) {
	return foldSums(sum4(&l.sh), sum4(&l.sl), sum4(&l.xh), sum4(&l.xl),
		sum4(&l.h2hi), sum4(&l.h2lo), sum4(&l.hlhi), sum4(&l.hllo), sum4(&l.l2hi), sum4(&l.l2lo))
}

// foldSums returns Σq, Σ i·q_i and Σq² from the sums of the halves h and
// l of q = h·2^29 + l, as quantLanes holds them.
func foldSums(sh, sl, xh, xl, h2hi, h2lo, hlhi, hllo, l2hi, l2lo int64) (s, x, q2 wide128) {
	s = shifted(sh, 29)
	s.add(shifted(sl, 0))
	x = shifted(xh, 29)
	x.add(shifted(xl, 0))
	// Σq² = Σh²·2^58 + Σh·l·2^30 + Σl², by powers of two; the offset
	// of Σh·l, 2^65·2^30, comes off.
	q2 = wide128{0, uint64(h2hi) << (90 - 64)}
	q2.add(shifted(hlhi, 62))
	q2.add(shifted(h2lo, 58))
	q2.add(shifted(l2hi, 32))
	q2.add(shifted(hllo, 30))
	q2.add(shifted(l2lo, 0))
	q2.sub(wide128{0, 1 << (95 - 64)})
	return s, x, q2
}

// shifted returns v·2^k as a 128-bit integer, for k < 64.
func shifted(v int64, k uint) wide128 {
	return wide128{uint64(v), uint64(v >> 63)}.shl(k)
}

// shl returns a·2^k, for k < 64, modulo 2^128.
func (a wide128) shl(k uint) wide128 {
	if k == 0 {
		return a
	}
	return wide128{a.lo << k, a.hi<<k | a.lo>>(64-k)}
}

// quantSums32 is quantSums for at least four float32 samples, by
// quantLanes32AVX2 (qt.f2 is 1: the factor is one power of two).
func quantSums32(vals []float32, qt quant, mn, mx float64) (s, x, q2 wide128, _, _ float64) {
	var l quantLanes
	for i := 0; i < len(vals); {
		n := len(vals) - i
		if n > maxLaneSamples {
			n = maxLaneSamples &^ 3
		}
		quantLanes32AVX2(&vals[i], n, qt.f1, mn, mx, &l)
		cs, cx, cq2 := l.fold()
		// The chunk's indices start at i.
		x.add(cs.mul(i))
		x.add(cx)
		s.add(cs)
		q2.add(cq2)
		mn, mx = l.mn, l.mx
		i += n
	}
	return s, x, q2, mn, mx
}

// maxRowIndex bounds the indices of quantRuns32AVX2's samples within a
// row: i·h and i·l stay below 2^55, and 32 of them a lane below 2^60.
const maxRowIndex = 1 << 26

// runQuant holds the sums of quantRuns32AVX2 for one run, as quantLanes
// holds them but with the four lanes added and the indices counted from
// the row's start: sums[k] holds two of them in
// elements 0 and 2, in the order sh, sl, xh, xl, h2hi, h2lo, hlhi, hllo,
// l2hi, l2lo.
type runQuant struct {
	sums   [5][4]int64
	mn, mx float64
}

// The kernel writes runQuant at fixed offsets.
var (
	_ [unsafe.Sizeof(runQuant{}) - 176]struct{}
	_ [176 - unsafe.Sizeof(runQuant{})]struct{}
)

// fold returns Σq, Σ x·q_x and Σq² of the run's samples at x.
func (r *runQuant) fold() (s, x, q2 wide128) {
	return foldSums(r.sums[0][0], r.sums[0][2], r.sums[1][0], r.sums[1][2],
		r.sums[2][0], r.sums[2][2], r.sums[3][0], r.sums[3][2], r.sums[4][0], r.sums[4][2])
}
