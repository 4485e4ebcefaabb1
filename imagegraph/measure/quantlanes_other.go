//go:build !amd64 || purego

package measure

// hasQuantLanes32 is false: without the amd64 kernel, quantSums takes
// float32 samples one at a time.
const hasQuantLanes32 = false

// quantLanes32AVX2 is never called without the amd64 kernel.
func quantLanes32AVX2(p *float32, n int, f, mn, mx float64, l *quantLanes) {
	panic("measure: no quantization kernel")
}

// quantRuns32AVX2 is never called without the amd64 kernel.
func quantRuns32AVX2(row *float32, runs *int32, nruns int, f float64, out *runQuant, ahead uintptr) {
	panic("measure: no quantization kernel")
}
