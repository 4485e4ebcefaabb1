package parallel

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

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

// canPopulate says whether populateWrite may work here.
const canPopulate = true

// populateWrite faults in b's pages writable without changing them.
func populateWrite(b []byte) error { return syscall.Madvise(b, madvPopulateWrite) }
