//go:build !amd64 || purego

package measure

// hasQuantRuns32 is false: without the amd64 kernel, float32 samples
// are summed one at a time.
const hasQuantRuns32 = false

// quantRuns32AVX2 is never called without the amd64 kernel.
func quantRuns32AVX2(row *float32, runs *int32, nruns int, f float64, out *runQuant, ahead uintptr) int {
	panic("measure: no quantization kernel")
}

// absMax32 is never called without the amd64 kernel.
func absMax32(row *float32, blocks int) uint32 { panic("measure: no quantization kernel") }
