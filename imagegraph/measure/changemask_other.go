//go:build !amd64 || purego

package measure

import "unsafe"

// hasChangeMasks32 is false: without the amd64 kernel, change masks come
// from changeMask.
const hasChangeMasks32 = false

// changeMasks32AVX2 is never called without the amd64 kernel.
func changeMasks32AVX2(p unsafe.Pointer, words int, masks *uint64) {
	panic("measure: no change-mask kernel")
}
