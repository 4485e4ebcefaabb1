package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapTemp maps f, an empty file, as size bytes long, shared, when it is on
// tmpfs with room for them; nil otherwise, f then unchanged. Only tmpfs is
// mapped: there one file's writes take its lock one at a time while faults
// in a mapping of it run on every core, and on the file systems of disks
// cclabel keeps one writer.
func mapTemp(f *os.File, size int64) []byte {
	var st unix.Statfs_t
	if unix.Fstatfs(int(f.Fd()), &st) != nil || st.Type != unix.TMPFS_MAGIC {
		return nil
	}
	if st.Bavail*uint64(st.Bsize) < uint64(size) || int64(int(size)) != size {
		return nil
	}
	if f.Truncate(size) != nil {
		return nil
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		f.Truncate(0)
		return nil
	}
	return m
}

func unmapTemp(m []byte) error { return unix.Munmap(m) }
