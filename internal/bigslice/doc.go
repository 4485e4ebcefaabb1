// Package bigslice allocates large slices of plain numbers (label arrays,
// sample buffers) so that their first touch is cheap.
//
// A fresh Go allocation of hundreds of MiB is backed by 4 KiB pages that
// the kernel maps one fault at a time on first write: about 65,000 faults
// for a 256 MiB label array, which on a virtual machine costs more system
// time than labeling it. Make asks the kernel for transparent huge pages
// on the buffer (madvise MADV_HUGEPAGE, honoured when
// /sys/kernel/mm/transparent_hugepage/enabled is "always" or "madvise"),
// so the same buffer takes about 130 faults of 2 MiB; Populate faults a
// buffer in on a background goroutine while the caller fills it; For
// picks between those and touching the pages up front on many threads.
//
// The memory stays ordinary Go heap memory, owned by the garbage
// collector: the advice only changes how the kernel backs it. Only slices
// of pointer-free element types are worth passing through here.
package bigslice
