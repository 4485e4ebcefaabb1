//go:build unix

package measure

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestQuantRunsPageEnd checks the row kernel on runs of every length it
// takes that end at the last sample before an unreadable page: its masked
// tail loads must not read past the run, and the sums must be right.
func TestQuantRunsPageEnd(t *testing.T) {
	if !hasQuantRuns32 {
		t.Skip("no row kernel here")
	}
	ps := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[ps:], syscall.PROT_NONE); err != nil {
		t.Skip(err)
	}
	row := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), ps/4)
	for i := range row {
		row[i] = float32(i%7) - 2.5
	}
	for n := 1; n <= maxLaneSamples; n++ {
		checkQuantRuns(t, "page-end", row, []int32{int32(len(row) - n), int32(n)})
	}
}
