package measure

import "unsafe"

// The bounds of quantRuns32AVX2: with q = h·2^29 + l, |h| <= 2^29 and 0
// <= l < 2^29, each of h², h·l and l² is at most 2^58 in magnitude, and
// the 32 of a lane (31 blocks and the tail of the most samples of a run)
// stay below 2^63; the sample indices i within a row keep i·h and i·l
// below 2^55, 32 of them below 2^60.
const (
	maxLaneSamples = 4*31 + 3
	maxRowIndex    = 1 << 26
)

// runQuant holds the sums of quantRuns32AVX2 for one run's samples q_i = h·2^29
// + l (i from the row's start), two a row of sums in elements 0 and 2: Σh, Σl;
// Σ i·h, Σ i·l; Σh² = h2hi·2^32 + h2lo; Σh·l + 2^65 = hlhi·2^32 + hllo; Σl² =
// l2hi·2^32 + l2lo. mn and mx are the least and greatest sample.
type runQuant struct {
	sums   [5][4]int64
	mn, mx float64
}

// The kernel writes runQuant at fixed offsets: these fail to compile
// where the layout differs.
var (
	_ [unsafe.Sizeof(runQuant{}) - 176]struct{}
	_ [176 - unsafe.Sizeof(runQuant{})]struct{}
)

// fold returns Σq, Σ i·q_i and Σq² of the run's samples.
func (r *runQuant) fold() (s, x, q2 wide128) {
	sh, sl, xh, xl := r.sums[0][0], r.sums[0][2], r.sums[1][0], r.sums[1][2]
	h2hi, h2lo, hlhi, hllo := r.sums[2][0], r.sums[2][2], r.sums[3][0], r.sums[3][2]
	s = shifted(sh, 29)
	s.add(wide128{uint64(sl), uint64(sl >> 63)})
	x = shifted(xh, 29)
	x.add(wide128{uint64(xl), uint64(xl >> 63)})
	// Σq² = Σh²·2^58 + Σh·l·2^30 + Σl², by powers of two, less the offset of
	// Σh·l, 2^65·2^30; the halves, below 2^34, are added in pairs first.
	q2 = wide128{0, uint64(h2hi) << (90 - 64)}
	q2.add(shifted(h2lo+hlhi<<4, 58))
	q2.add(shifted(r.sums[4][0]<<2+hllo, 30))
	q2.add(wide128{uint64(r.sums[4][2]), 0})
	q2.sub(wide128{0, 1 << (95 - 64)})
	return s, x, q2
}

// shifted returns v·2^k as a 128-bit integer, for 0 < k < 64.
func shifted(v int64, k uint) wide128 {
	return wide128{uint64(v) << k, uint64(v>>63)<<k | uint64(v)>>(64-k)}
}
