package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tmpfsDir returns a fresh folder on tmpfs, where large files are written
// through a mapping, or skips the test.
func tmpfsDir(t *testing.T) string {
	t.Helper()
	base := "/dev/shm"
	probe, err := os.CreateTemp(base, "cclabel-probe-*")
	if err != nil {
		t.Skipf("no writable %s: %v", base, err)
	}
	m := mapTemp(probe, 2*MapMinBytes) // room for the tests' files
	probe.Close()
	os.Remove(probe.Name())
	if m == nil {
		t.Skipf("%s is not a tmpfs with room for %d bytes", base, 2*MapMinBytes)
	}
	unmapTemp(m)
	dir, err := os.MkdirTemp(base, "cclabel-test-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// mappedWrites are the ways a file is written through a mapping: filled on
// threads goroutines, or written at offsets from several goroutines.
var mappedWrites = []struct {
	name  string
	write func(path string, size int64, fill FillFunc) error
}{
	{"WriteFileAt/1", func(path string, size int64, fill FillFunc) error { return WriteFileAt(path, size, 1, fill) }},
	{"WriteFileAt/all", func(path string, size int64, fill FillFunc) error { return WriteFileAt(path, size, 0, fill) }},
	{"WriteFileWith", func(path string, size int64, fill FillFunc) error {
		return WriteFileWith(path, size, func(w io.WriterAt) error {
			head := make([]byte, 100)
			if err := fill(head, 0); err != nil {
				return err
			}
			if _, err := w.WriteAt(head, 0); err != nil { // a small piece, then one large
				return err
			}
			rest := make([]byte, size-100)
			if err := fill(rest, 100); err != nil {
				return err
			}
			_, err := w.WriteAt(rest, 100)
			return err
		})
	}},
}

// TestWriteMapped: a large file on tmpfs is written through a mapping, whole
// and in place, and only the file is left.
func TestWriteMapped(t *testing.T) {
	dir := tmpfsDir(t)
	size := int64(MapMinBytes + 3*ChunkBytes/2 + 5)
	for _, c := range mappedWrites {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, "out.bin")
			before := mappedFiles.Load()
			if err := c.write(path, size, patternFill); err != nil {
				t.Fatal(err)
			}
			if mappedFiles.Load() != before+1 {
				t.Error("the file was not written through a mapping")
			}
			checkPatternFile(t, dir, size)
			os.Remove(path)
		})
	}
}

// TestWriteMappedFails: a fault in the mapping (its file cut short, as a
// full file system leaves it) and an error of fill end the write with an
// error; the temporary file is removed and an existing file kept.
func TestWriteMappedFails(t *testing.T) {
	dir := tmpfsDir(t)
	size := int64(MapMinBytes + 5)
	errFill := errors.New("fill failed")
	for _, c := range mappedWrites {
		for _, fail := range []string{"fault", "fill"} {
			t.Run(c.name+"/"+fail, func(t *testing.T) {
				path := filepath.Join(dir, "out.bin")
				if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
				fill := patternFill
				if fail == "fault" {
					afterMap = func(f *os.File) { f.Truncate(0) }
					defer func() { afterMap = nil }()
				} else {
					fill = func(dst []byte, off int64) error {
						if off+int64(len(dst)) > size/2 {
							return errFill
						}
						return patternFill(dst, off)
					}
				}
				err := c.write(path, size, fill)
				switch {
				case err == nil:
					t.Fatal("the write succeeded")
				case fail == "fault" && (!errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "could not be allocated")):
					t.Errorf("error %q does not name the fault", err)
				case fail == "fill" && !errors.Is(err, errFill):
					t.Errorf("error %v, want %v", err, errFill)
				}
				if got, _ := os.ReadFile(path); string(got) != "old" {
					t.Errorf("the existing file holds %q", got)
				}
				assertOnlyFile(t, dir, "out.bin")
			})
		}
	}
}

// TestMappedWriteAtRange: a write past the mapped file is an error.
func TestMappedWriteAtRange(t *testing.T) {
	w := &mapped{m: make([]byte, 10), path: "x"}
	for _, c := range []struct {
		n   int
		off int64
		ok  bool
	}{{10, 0, true}, {4, 6, true}, {4, 7, false}, {1, -1, false}, {0, 10, true}, {0, 11, false}} {
		t.Run(fmt.Sprint(c.n, "@", c.off), func(t *testing.T) {
			_, err := w.WriteAt(make([]byte, c.n), c.off)
			if (err == nil) != c.ok {
				t.Errorf("WriteAt = %v", err)
			}
		})
	}
}

// TestWritePanicLeavesNothing: a panic in write, recovered by the caller,
// leaves neither the mapping nor the temporary file, mapped or not.
func TestWritePanicLeavesNothing(t *testing.T) {
	dir := tmpfsDir(t)
	for _, size := range []int64{MapMinBytes, 100} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			func() {
				defer func() { recover() }()
				WriteFileWith(filepath.Join(dir, "out.bin"), size, func(w io.WriterAt) error {
					w.WriteAt([]byte("x"), 0)
					panic("a bug")
				})
			}()
			maps, _ := os.ReadFile("/proc/self/maps")
			for _, l := range strings.Split(string(maps), "\n") {
				if strings.Contains(l, dir) {
					t.Errorf("still mapped: %s", l)
				}
			}
			assertOnlyFile(t, dir, "")
		})
	}
}
