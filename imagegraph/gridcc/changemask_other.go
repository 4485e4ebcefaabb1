//go:build !amd64 || purego

package gridcc

import "unsafe"

// changeMasks32 returns false: without the amd64 kernel, change masks come
// from changeMask.
func changeMasks32(p unsafe.Pointer, masks []uint64) bool { return false }
