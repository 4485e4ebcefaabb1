//go:build !purego

package measure

import "golang.org/x/sys/cpu"

// hasQuantRuns32 reports whether quantRuns32AVX2 can run.
var hasQuantRuns32 = cpu.X86.HasAVX2

// quantRuns32AVX2 quantizes the float32 samples of nruns runs from row by
// the factor f, a power of two, and sums each into out[k] as runQuant
// holds them: run k starts at runs[2k] (below maxRowIndex) and has
// runs[2k+1] samples (1 to maxLaneSamples). It prefetches the samples a
// little ahead, and the bytes ahead bytes on from each (anything: a
// prefetch reads nothing). It returns 0 when every v·f is an integer.
//
//go:noescape
func quantRuns32AVX2(row *float32, runs *int32, nruns int, f float64, out *runQuant, ahead uintptr) (inexact int)

// absMax32 returns the greatest of the bits of |v| (the sign cleared) of
// the blocks blocks of eight float32 samples from row.
//
//go:noescape
func absMax32(row *float32, blocks int) uint32
