//go:build !amd64 || purego

package measure

import "unsafe"

// hasKeyExtremes32 is false: without the amd64 kernel, floatExtremes32
// takes the keys one at a time.
const hasKeyExtremes32 = false

// keyExtremes32AVX2 is never called without the amd64 kernel.
func keyExtremes32AVX2(p unsafe.Pointer, blocks int, lo, hi *[8]uint32) {
	panic("measure: no extremes kernel")
}
