package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFaultElsewhereGoesOn: a fault outside the mapping (here in another
// mapped file cut short) is not taken for the output's and panics on.
func TestFaultElsewhereGoesOn(t *testing.T) {
	dir := tmpfsDir(t)
	in, err := os.Create(filepath.Join(dir, "in.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	in.Truncate(1 << 20)
	src, err := syscall.Mmap(int(in.Fd()), 0, 1<<20, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(src)
	in.Truncate(0)
	w := &mapped{m: make([]byte, 1<<20), path: "out"}
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		err = w.faulted(func() error { copy(w.m, src); return nil })
		return false
	}()
	if !panicked {
		t.Errorf("faulted returned %v, want the fault to go on", err)
	}
}
