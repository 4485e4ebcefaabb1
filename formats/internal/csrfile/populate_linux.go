package csrfile

import "syscall"

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14).
const madvPopulateRead = 22

// populateRead maps the pages of b, which starts on a page, readable
// without breaking copy-on-write.
func populateRead(b []byte) error { return syscall.Madvise(b, madvPopulateRead) }
