//go:build !purego

package measure

import "golang.org/x/sys/cpu"

// hasQuantLanes32 reports whether quantLanes32AVX2 can run.
var hasQuantLanes32 = cpu.X86.HasAVX2

// quantLanes32AVX2 quantizes the n float32 samples from p (4 <= n <=
// maxLaneSamples) by the factor f, a power of two, and leaves their sums
// in l, with the extremes of the samples and mn and mx in l.mn and l.mx.
//
//go:noescape
func quantLanes32AVX2(p *float32, n int, f, mn, mx float64, l *quantLanes)

// quantRuns32AVX2 is quantLanes32AVX2 for nruns runs of the samples from
// row, each of 4 to maxLaneSamples samples: run k starts at runs[2k] and
// has runs[2k+1] samples, and its sums go to out[k], with the extremes of
// the run's samples alone and its indices counted from row (below
// maxRowIndex). It prefetches the samples a little ahead, and
// the bytes ahead bytes on from each sample (which may be anything: a
// prefetch reads nothing).
//
//go:noescape
func quantRuns32AVX2(row *float32, runs *int32, nruns int, f float64, out *runQuant, ahead uintptr)
