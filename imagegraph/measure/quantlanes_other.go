//go:build !amd64 || purego

package measure

// hasQuantLanes32 is false: without the amd64 kernel, quantSums takes
// float32 samples one at a time.
const hasQuantLanes32 = false

// quantLanes32AVX2 is never called without the amd64 kernel.
func quantLanes32AVX2(p *float32, n int, f float64, l *quantLanes) {
	panic("measure: no quantization kernel")
}
