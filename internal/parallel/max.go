package parallel

import "runtime"

// minMaxPerThread is the fewest elements worth another goroutine in [Max].
const minMaxPerThread = 1 << 20

// Max returns the largest element of s, scanning parts of it on all cores.
//
// It returns 0 when s is empty. Writers call it on label arrays of
// hundreds of megabytes to choose the label type.
func Max(s []uint32) uint32 {
	threads := ClampThreads(runtime.GOMAXPROCS(0), len(s)/minMaxPerThread)
	most := make([]uint32, threads)
	RangesIndexed(len(s), threads, func(t, lo, hi int) { most[t] = maxSerial(s[lo:hi]) })
	return maxSerial(most)
}

// maxSerial is [Max] on one goroutine, with four running maxima so that the
// comparisons of neighbouring elements do not wait on one another.
func maxSerial(s []uint32) uint32 {
	var m0, m1, m2, m3 uint32
	i := 0
	for ; i+4 <= len(s); i += 4 {
		m0, m1, m2, m3 = max(m0, s[i]), max(m1, s[i+1]), max(m2, s[i+2]), max(m3, s[i+3])
	}
	for ; i < len(s); i++ {
		m0 = max(m0, s[i])
	}
	return max(m0, m1, m2, m3)
}
