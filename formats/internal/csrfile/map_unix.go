//go:build unix

package csrfile

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f privately, readable and writable.
func mapFile(f *os.File, size int) ([]byte, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	var merr error
	if err := raw.Control(func(fd uintptr) {
		data, merr = syscall.Mmap(int(fd), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	}); err != nil {
		return nil, err
	}
	return data, merr
}

// unmapFile undoes [mapFile].
func unmapFile(data []byte) error { return syscall.Munmap(data) }
