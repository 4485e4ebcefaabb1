package parallel

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// populateChunk is how much [Populate] faults in per system call, so that
// a stop request is seen quickly.
const populateChunk = 4 << 20

// Populate faults in the pages of b on a background goroutine.
//
// It goes front to back, without changing their contents, while the caller
// starts filling b: on a machine with a spare core the page faults of a
// fresh buffer then cost no wall time. The returned stop ends the goroutine
// early and waits for it; call it once b is filled (later calls do nothing).
// Where the kernel cannot populate (Linux before 5.14, other systems),
// nothing runs and b's pages fault on first write as usual.
func Populate(b []byte) (stop func()) {
	r := pageRange(b)
	if len(r) < HugeMinBytes || !canPopulate {
		return func() {}
	}
	var quit atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for off := 0; off < len(r) && !quit.Load(); off += populateChunk {
			if populateWrite(r[off:min(off+populateChunk, len(r))]) != nil {
				return
			}
		}
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			quit.Store(true)
			wg.Wait()
		})
	}
}

// AllocPopulated returns a zeroed slice of n elements with [Populate]
// started on it.
//
// Fill it, then call stop. It keeps small pages: on a virtual machine with
// free page reporting (virtio-balloon), free 2 MiB blocks are handed back to
// the host, so a fresh huge page costs 512 host faults, while small pages
// mostly come from memory the host still backs.
func AllocPopulated[T any](n int) (s []T, stop func()) {
	s = make([]T, n)
	return s, Populate(bytesOf(s))
}

// pageRange is the largest 4 KiB-aligned part of b.
func pageRange(b []byte) []byte {
	const page = 4 << 10
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return nil
	}
	return b[lo-start : hi-start]
}
