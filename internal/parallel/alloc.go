package parallel

import (
	"runtime"
	"unsafe"
)

// HugeMinBytes is the smallest buffer [Alloc] asks huge pages for.
//
// Below it, the few 4 KiB faults cost less than the madvise call and
// splitting the heap mapping.
const HugeMinBytes = 8 << 20

// hugePage is the transparent huge page size on x86-64 and arm64 Linux
// with 4 KiB base pages.
const hugePage = 2 << 20

// TouchThreads is the thread count from which [AllocFor] touches pages up
// front.
//
// From it, a buffer's pages are touched on the caller's threads instead of
// in the background.
const TouchThreads = 4

// Alloc returns a zeroed slice of n elements, on huge pages when large.
//
// When it spans at least [HugeMinBytes] the kernel is asked to back it
// with huge pages. Its pages fault on first write.
func Alloc[T any](n int) []T {
	s := make([]T, n)
	if b := bytesOf(s); len(b) >= HugeMinBytes {
		adviseHuge(b)
	}
	return s
}

// AllocFor returns a zeroed slice of n elements for threads goroutines to
// fill.
//
// Its page faults are taken where they cost least; done is to be called
// once it is filled (later calls do nothing):
//   - with [TouchThreads] or more, or as many as there are cores, its pages
//     are touched now on that many goroutines, in small pages: the faults
//     spread over the cores, and no huge page allocation can stall on
//     memory compaction;
//   - with fewer, a background goroutine faults the pages in while the
//     caller fills the slice ([AllocPopulated]), on a core the caller
//     leaves idle.
func AllocFor[T any](n, threads int) (s []T, done func()) {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	if threads >= TouchThreads || threads >= runtime.GOMAXPROCS(0) {
		s = make([]T, n)
		if b := bytesOf(s); len(b) >= HugeMinBytes {
			Touch(b, threads)
		}
		return s, func() {}
	}
	return AllocPopulated[T](n)
}

// bytesOf is s's memory as bytes.
func bytesOf[T any](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(zero))
}

// Touch writes one zero byte per 4 KiB page of b on threads goroutines.
//
// b's page faults are thus taken in parallel before its first real use.
// The bytes keep their values (b must be zero, as a fresh allocation is,
// or the caller must not care).
func Touch(b []byte, threads int) {
	const page = 4 << 10
	pages := (len(b) + page - 1) / page
	Ranges(pages, threads, func(lo, hi int) {
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
