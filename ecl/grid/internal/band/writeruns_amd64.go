//go:build !purego

package band

import "golang.org/x/sys/cpu"

// writeRunsFast writes the first runs of a row as WriteRuns does, eight
// entries a store, overshooting as FillSpan does, and returns how many it
// wrote: every run that ends eight entries or more before dst's end (the
// runs from the first that does not are left), or none without AVX2.
func writeRunsFast(dst []uint32, starts, ends []int32, labels []uint32) int {
	if !cpu.X86.HasAVX2 {
		return 0
	}
	n := len(ends)
	for n > 0 && int(ends[n-1])+8 > len(dst) {
		n--
	}
	if n > 0 {
		writeRunsAVX2(&dst[0], &starts[0], &ends[0], &labels[0], n)
	}
	return n
}

// writeRunsAVX2 writes n runs into dst: for each, zeros in blocks of eight
// from the previous run's end (0 for the first) while short of its start,
// then its label in blocks of eight from its start while short of its end.
//
//go:noescape
func writeRunsAVX2(dst *uint32, starts, ends *int32, labels *uint32, n int)
