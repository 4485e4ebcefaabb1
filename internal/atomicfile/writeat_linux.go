package atomicfile

import (
	"os"
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

// fillMapped sizes f to size bytes, maps it and fills it through fill. It
// reports false, with a nil error, when the file cannot be mapped or its
// space not reserved (the caller then writes it), and an error when fill
// fails or a mapped page cannot be written.
func fillMapped(f *os.File, size int64, threads int, fill FillFunc) (bool, error) {
	if size == 0 || size != int64(int(size)) {
		return false, nil
	}
	fd := int(f.Fd())
	// Reserved blocks: a page fault never meets a full disk.
	if err := syscall.Fallocate(fd, 0, 0, size); err != nil {
		return false, nil
	}
	m, err := syscall.Mmap(fd, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return false, nil
	}
	err = chunks(size, threads, func(lo, hi int64) error {
		dst := m[lo:hi]
		// The piece's pages faulted in by one call, not one trap each;
		// a kernel without it faults them as fill writes.
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(len(dst)), madvPopulateWrite)
		return guardFault(func() error { return fill(dst, lo) })
	})
	if uerr := syscall.Munmap(m); err == nil && uerr != nil {
		err = uerr
	}
	return true, err
}
