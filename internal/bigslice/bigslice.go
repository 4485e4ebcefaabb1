package bigslice

import (
	"unsafe"

	"github.com/cclabel/cclabel/internal/parallel"
)

// MinBytes is the smallest buffer Make advises: below it, the few 4 KiB
// faults cost less than the madvise call and splitting the heap mapping.
const MinBytes = 8 << 20

// hugePage is the transparent huge page size on x86-64 and arm64 Linux
// with 4 KiB base pages.
const hugePage = 2 << 20

// Make returns a zeroed slice of n elements. When it spans at least
// MinBytes, the kernel is asked to back it with huge pages, and with
// touchThreads > 0 its pages are first touched on that many goroutines
// (0 or less: leave the touching to the caller's first writes).
func Make[T any](n, touchThreads int) []T {
	s := make([]T, n)
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if size < MinBytes {
		return s
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), size)
	adviseHuge(b)
	if touchThreads > 0 {
		Touch(b, touchThreads)
	}
	return s
}

// Touch writes one zero byte per 4 KiB page of b on threads goroutines,
// so that b's page faults are taken in parallel before its first real use.
// The bytes keep their values (b must be zero, as a fresh allocation is,
// or the caller must not care).
func Touch(b []byte, threads int) {
	const page = 4 << 10
	pages := (len(b) + page - 1) / page
	parallel.Ranges(pages, threads, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			b[p*page] = 0
		}
	})
}

// hugeRange is the largest huge-page-aligned part of b: madvise needs a
// page-aligned start, and only whole huge pages can be huge.
func hugeRange(b []byte) []byte {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + hugePage - 1) &^ (hugePage - 1)
	hi := (start + uintptr(len(b))) &^ (hugePage - 1)
	if hi <= lo {
		return nil
	}
	return b[lo-start : hi-start]
}
