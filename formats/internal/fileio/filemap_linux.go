package fileio

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mapRegion maps length bytes of f from the page-aligned offset off,
// private and read-only, with its pages populated.
func mapRegion(f *os.File, off int64, length int) ([]byte, error) {
	b, err := unix.Mmap(int(f.Fd()), off, length, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("filemap: mmap %s: %w", f.Name(), err)
	}
	return b, nil
}

// unmapRegion undoes mapRegion.
func unmapRegion(b []byte) error { return unix.Munmap(b) }
