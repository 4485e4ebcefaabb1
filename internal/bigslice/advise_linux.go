package bigslice

import "syscall"

// madvHugepage is MADV_HUGEPAGE from <linux/mman.h>.
const madvHugepage = 14

// adviseHuge asks for transparent huge pages on b's aligned interior.
// The advice is best effort: a kernel without THP refuses it, and the
// buffer works the same with small pages.
func adviseHuge(b []byte) {
	if r := hugeRange(b); len(r) > 0 {
		_ = syscall.Madvise(r, madvHugepage)
	}
}
