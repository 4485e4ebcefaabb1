package measure

import "unsafe"

// The bounds of quantRuns32AVX2: with q = h·2^29 + l, |h| <= 2^29 and |l|
// <= 2^28, each of h², h·l and l² is at most 2^58 in magnitude, and the 32
// of a lane (31 steps and the tail of the most samples of a run) stay
// within 2^63; the sample indices i within a row keep Σ i·h and Σ i·l over
// a run below 2^62.
const (
	maxLaneSamples = 4*31 + 3
	maxRowIndex    = 1 << 26
)

// runQuant holds the sums of quantRuns32AVX2 for one run's samples q_i = h·2^29
// + l, lane j of its steps t taking sample 4t+j: Σh and Σl by lane; in
// elements 0 and 2 of each of the other rows, the sums over the lanes of the
// running sums of Σh and of Σl; Σh² = h2hi·2^32 + h2lo; Σh·l + 2^65 =
// hlhi·2^32 + hllo; Σl² = l2hi·2^32 + l2lo. mn and mx are the least and
// greatest sample.
type runQuant struct {
	sums   [6][4]int64
	mn, mx float64
}

// The kernel writes runQuant at fixed offsets: this fails to compile
// where its size differs.
const _ = -(unsafe.Sizeof(runQuant{}) ^ 208)

// fold returns Σq, Σ i·q_i (i from the row's start) and Σq² of the samples
// of a run of n from x0.
func (r *runQuant) fold(x0, n int) (s, x, q2 wide128) {
	h, l := &r.sums[0], &r.sums[1]
	sh, sl := h[0]+h[1]+h[2]+h[3], l[0]+l[1]+l[2]+l[3]
	// Over m steps a lane's Σ t·q_t is m·Σq less the sum of its running
	// sums, and its samples are i = x0 + 4t + j.
	m := int64(x0 + (n+3)&^3)
	xh := m*sh + h[1] + 2*h[2] + 3*h[3] - 4*r.sums[2][0]
	xl := m*sl + l[1] + 2*l[2] + 3*l[3] - 4*r.sums[2][2]
	s = shifted(sh, 29)
	s.add(wide128{uint64(sl), uint64(sl >> 63)})
	x = shifted(xh, 29)
	x.add(wide128{uint64(xl), uint64(xl >> 63)})
	// Σq² = Σh²·2^58 + Σh·l·2^30 + Σl², by powers of two, less the offset of
	// Σh·l, 2^65·2^30; the halves, below 2^34, are added in pairs first.
	h2hi, h2lo, hlhi, hllo := r.sums[3][0], r.sums[3][2], r.sums[4][0], r.sums[4][2]
	q2 = wide128{0, uint64(h2hi) << (90 - 64)}
	q2.add(shifted(h2lo+hlhi<<4, 58))
	q2.add(shifted(r.sums[5][0]<<2+hllo, 30))
	q2.add(wide128{uint64(r.sums[5][2]), 0})
	q2.sub(wide128{0, 1 << (95 - 64)})
	return s, x, q2
}

// shifted returns v·2^k as a 128-bit integer, for 0 < k < 64.
func shifted(v int64, k uint) wide128 {
	return wide128{uint64(v) << k, uint64(v>>63)<<k | uint64(v)>>(64-k)}
}
