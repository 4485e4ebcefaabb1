//go:build !purego

package band

import "golang.org/x/sys/cpu"

// writeRunsFast writes the first runs of a row as WriteRuns does, eight
// entries a store, overshooting as FillSpan does, and returns how many it
// wrote: every run that ends eight entries or more before dst's end (the
// runs from the first that does not are left), or none without AVX2.
func writeRunsFast(dst []uint32, starts, ends []int32, labels []uint32) int {
	n := fastRuns(dst, ends, 1)
	if n > 0 {
		writeRunsAVX2(&dst[0], &starts[0], &ends[0], 4, &labels[0], n)
	}
	return n
}

// writeBoundsFast is writeRunsFast for runs given as bounds (start, end
// pairs).
func writeBoundsFast(dst []uint32, bounds []int32, labels []uint32) int {
	if len(labels) == 0 {
		return 0
	}
	n := fastRuns(dst, bounds[1:], 2)
	if n > 0 {
		writeRunsAVX2(&dst[0], &bounds[0], &bounds[1], 8, &labels[0], n)
	}
	return n
}

// fastRuns returns how many of the runs ending at ends[0], ends[step], ...
// (len(ends)/step rounded up of them) writeRunsAVX2 can write into dst:
// those ending eight entries or more before its end; none without AVX2.
func fastRuns(dst []uint32, ends []int32, step int) int {
	if !fastWrites() {
		return 0
	}
	n := (len(ends) + step - 1) / step
	for n > 0 && int(ends[(n-1)*step])+8 > len(dst) {
		n--
	}
	return n
}

// writeRunsAVX2 writes n runs into dst, the k-th from starts and ends
// k*stride bytes on: for each, zeros in blocks of eight from the previous
// run's end (0 for the first) while short of its start, then its label in
// blocks of eight from its start while short of its end.
//
//go:noescape
func writeRunsAVX2(dst *uint32, starts, ends *int32, stride int, labels *uint32, n int)

// fastWrites reports whether writeRunsAVX2 can run.
func fastWrites() bool { return cpu.X86.HasAVX2 }
