package measure

import "unsafe"

// The bounds of quantRuns32AVX2: with q = h·2^30 + l, |h| <= 2^28 and |l|
// <= 2^29, h², |h·l| and l² are at most 2^56, 2^57 and 2^58, and the sums
// over the most samples of a run (15 steps and a tail) of h² and l² stay
// below 2^64, that of h·l within 2^63; the sample indices i within a row
// keep Σ i·h and Σ i·l over a run below 2^62.
const (
	maxLaneSamples = 4*15 + 3
	maxRowIndex    = 1 << 26
)

// runQuant holds the sums of quantRuns32AVX2 for one run of n samples q_i =
// h·2^30 + l from x0, lane j of its steps t taking sample 4t+j: Σh, Σl;
// wh and wl, which make Σ i·h = (x0 + 4·steps)·Σh + wh and Σ i·l likewise
// (i from the row's start); Σh², Σh·l and Σl², Σh² and Σl² unsigned. mn
// and mx are the least and greatest sample.
type runQuant struct {
	sh, sl, wh, wl, h2, hl, l2, _ int64
	mn, mx                        float64
}

// The kernel writes runQuant at fixed offsets: these fail to compile
// where its size differs from 80 bytes.
var (
	_ [unsafe.Sizeof(runQuant{}) - 80]struct{}
	_ [80 - unsafe.Sizeof(runQuant{})]struct{}
)

// fold returns Σq, Σ i·q_i (i from the row's start) and Σq² of the samples
// of a run of n from x0.
func (r *runQuant) fold(x0, n int) (s, x, q2 wide128) {
	m := int64(x0 + (n+3)&^3)
	s = shifted(r.sh, 30)
	s.add(wide128{uint64(r.sl), uint64(r.sl >> 63)})
	x = shifted(m*r.sh+r.wh, 30)
	xl := m*r.sl + r.wl
	x.add(wide128{uint64(xl), uint64(xl >> 63)})
	// Σq² = Σh²·2^60 + Σh·l·2^31 + Σl².
	q2 = wide128{uint64(r.h2) << 60, uint64(r.h2) >> 4}
	q2.add(shifted(r.hl, 31))
	q2.add(wide128{uint64(r.l2), 0})
	return s, x, q2
}

// shifted returns v·2^k as a 128-bit integer, for 0 < k < 64.
func shifted(v int64, k uint) wide128 {
	return wide128{uint64(v) << k, uint64(v>>63)<<k | uint64(v)>>(64-k)}
}
