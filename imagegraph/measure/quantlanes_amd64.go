//go:build !purego

package measure

import "golang.org/x/sys/cpu"

// hasQuantLanes32 reports whether quantLanes32AVX2 can run.
var hasQuantLanes32 = cpu.X86.HasAVX2

// quantLanes32AVX2 quantizes the n float32 samples from p (4 <= n <=
// maxLaneSamples) by the factor f, a power of two, and leaves their sums
// in l's lanes. It sets every sum of l, and lowers l.mn and raises l.mx,
// which the caller fills, to the lanes' extremes.
//
//go:noescape
func quantLanes32AVX2(p *float32, n int, f float64, l *quantLanes)
