package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// pattern is the byte at offset off of the test files: a function of the
// offset alone, so that a piece written at the wrong place shows.
func pattern(off int64) byte { return byte(off*7 + off>>12) }

// patternFill fills dst with the pattern from off on.
func patternFill(dst []byte, off int64) error {
	for i := range dst {
		dst[i] = pattern(off + int64(i))
	}
	return nil
}

// checkPatternFile checks that dir holds only out.bin, size bytes of the
// pattern, with mode 0644.
func checkPatternFile(t *testing.T, dir string, size int64) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(dir, "out.bin"))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, size)
	patternFill(want, 0)
	if !bytes.Equal(got, want) {
		t.Fatalf("file of %d bytes differs from the %d written", len(got), size)
	}
	if st, _ := os.Stat(filepath.Join(dir, "out.bin")); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	assertOnlyFile(t, dir, "out.bin")
}

func TestWriteFileAt(t *testing.T) {
	for _, size := range []int64{0, 1, ChunkBytes - 1, ChunkBytes, 3*ChunkBytes + 5} {
		for _, threads := range []int{1, 3, 0} {
			t.Run(fmt.Sprintf("size%d-threads%d", size, threads), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "out.bin")
				if err := os.WriteFile(path, []byte("old contents, longer than some"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := WriteFileAt(path, size, threads, patternFill); err != nil {
					t.Fatal(err)
				}
				checkPatternFile(t, dir, size)
			})
		}
	}
}

func TestWriteFileAtFillFails(t *testing.T) {
	for _, threads := range []int{1, 4} {
		t.Run(fmt.Sprint(threads), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.bin")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			boom := errors.New("boom")
			var calls atomic.Int64
			err := WriteFileAt(path, 20*ChunkBytes, threads, func(dst []byte, off int64) error {
				calls.Add(1)
				if off == 2*ChunkBytes {
					return boom
				}
				return patternFill(dst, off)
			})
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v, want boom", err)
			}
			if n := calls.Load(); n >= 20 {
				t.Errorf("%d pieces filled after the failure, want the rest skipped", n)
			}
			if got, _ := os.ReadFile(path); string(got) != "old" {
				t.Fatalf("old file changed to %q", got)
			}
			assertOnlyFile(t, dir, "out.bin")
		})
	}
}

func TestWriteFileAtWriteFault(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	defer InjectWriteFault(ChunkBytes + 10)()
	err := WriteFileAt(path, 4*ChunkBytes, 2, patternFill)
	if !errors.Is(err, ErrInjected) {
		t.Fatalf("err = %v, want the injected fault", err)
	}
	assertOnlyFile(t, dir, "")
}

func TestWriteFileAtInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	defer resetInterrupt()
	err := WriteFileAt(path, 3*ChunkBytes, 2, func(dst []byte, off int64) error {
		if off == 0 {
			Interrupt() // the temporary file goes; the write must not land
		}
		return patternFill(dst, off)
	})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	assertOnlyFile(t, dir, "")
}

func TestWriteFileAtNegativeSize(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFileAt(filepath.Join(dir, "out.bin"), -1, 1, patternFill); err == nil {
		t.Fatal("no error for a negative size")
	}
	assertOnlyFile(t, dir, "")
}
