//go:build !amd64 || purego

package band

import "unsafe"

// DiffMasks32 returns false: without the amd64 kernel, the callers compare
// sample by sample.
func DiffMasks32(a, b unsafe.Pointer, masks []uint64) bool { return false }
