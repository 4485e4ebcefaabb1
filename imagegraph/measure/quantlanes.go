package measure

import "unsafe"

// quantLanes holds the sums of quantLanes32AVX2 over n samples, by lane:
// lane j holds the samples 4k+j of the first 4·(n/4), each quantized as
// q = h·2^29 + l with 0 <= l < 2^29. sh and sl are Σh and Σl, ph and pl
// the sums of their running sums (Σ_k (n/4−k)·h_k), each in 64 bits. th
// and tl are h and l of the last four samples in the last n%4 lanes
// (the others 0). h2 = Σh², hl = Σh·l and l2 = Σl² over all n samples,
// and mn and mx the least and greatest sample.
type quantLanes struct {
	sh, sl, ph, pl, h2, hl, l2 [4]int64
	th, tl                     [4]int64
	mn, mx                     [4]float64
}

// maxLaneSamples is the most samples that one call of quantLanes32AVX2
// sums: |h| <= 2^29 and l < 2^29, so each of h², h·l and l² is at most
// 2^58 in magnitude, and the 32 of a lane (31 blocks and the tail) stay
// below 2^63.
const maxLaneSamples = 4*31 + 3

// The kernel reads the lanes at fixed offsets: these fail to compile
// where the layout differs.
var (
	_ [unsafe.Offsetof(quantLanes{}.th) - 224]struct{}
	_ [224 - unsafe.Offsetof(quantLanes{}.th)]struct{}
	_ [unsafe.Offsetof(quantLanes{}.mn) - 288]struct{}
	_ [288 - unsafe.Offsetof(quantLanes{}.mn)]struct{}
	_ [unsafe.Sizeof(quantLanes{}) - 352]struct{}
	_ [352 - unsafe.Sizeof(quantLanes{})]struct{}
)

// fold returns Σq, Σ i·q_i (i from 0) and Σq² of the n samples whose
// lanes l holds.
func (l *quantLanes) fold(n int) (s, x, q2 wide128) {
	iters, t0 := int64(n/4), int64(n-4)
	var sh, sl, xh, xl int64
	var h2, hl, l2 wide128
	for j := range 4 {
		sh += l.sh[j] + l.th[j]
		sl += l.sl[j] + l.tl[j]
		// Σ_k k·h_k = iters·Σh − Σ running sums; sample 4k+j. The
		// tail's sample t0+j.
		xh += 4*(iters*l.sh[j]-l.ph[j]) + int64(j)*l.sh[j] + (t0+int64(j))*l.th[j]
		xl += 4*(iters*l.sl[j]-l.pl[j]) + int64(j)*l.sl[j] + (t0+int64(j))*l.tl[j]
		h2.add(wide128{uint64(l.h2[j]), 0})
		hl.add(wide128{uint64(l.hl[j]), uint64(l.hl[j] >> 63)})
		l2.add(wide128{uint64(l.l2[j]), 0})
	}
	s = shifted(sh, 29)
	s.add(shifted(sl, 0))
	x = shifted(xh, 29)
	x.add(shifted(xl, 0))
	q2 = h2.shl(58)
	q2.add(hl.shl(30))
	q2.add(l2)
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
		l.mn = [4]float64{mn, mn, mn, mn}
		l.mx = [4]float64{mx, mx, mx, mx}
		quantLanes32AVX2(&vals[i], n, qt.f1, &l)
		cs, cx, cq2 := l.fold(n)
		// The chunk's indices start at i.
		x.add(cs.mul(i))
		x.add(cx)
		s.add(cs)
		q2.add(cq2)
		for j := range 4 {
			if l.mn[j] < mn {
				mn = l.mn[j]
			}
			if l.mx[j] > mx {
				mx = l.mx[j]
			}
		}
		i += n
	}
	return s, x, q2, mn, mx
}
