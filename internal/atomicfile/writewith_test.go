package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// writePattern writes size bytes of the pattern into w on goroutines
// pieces of piece bytes each, from the last piece to the first.
func writePattern(w io.WriterAt, size, piece int64, goroutines int) error {
	var wg sync.WaitGroup
	errs := make([]error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			for off := (size - 1) / piece * piece; off >= 0; off -= piece {
				if off/piece%int64(goroutines) != int64(g) {
					continue
				}
				buf := make([]byte, min(piece, size-off))
				patternFill(buf, off)
				if _, err := w.WriteAt(buf, off); err != nil {
					errs[g] = err
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func TestWriteFileWith(t *testing.T) {
	for _, size := range []int64{0, 1, 1000, 3*ChunkBytes + 5} {
		for _, goroutines := range []int{1, 3} {
			t.Run(fmt.Sprintf("size%d-goroutines%d", size, goroutines), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "out.bin")
				if err := os.WriteFile(path, []byte("old contents, longer than some"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := WriteFileWith(path, size, func(w io.WriterAt) error { return writePattern(w, size, 777, goroutines) }); err != nil {
					t.Fatal(err)
				}
				checkPatternFile(t, dir, size)
			})
		}
	}
}

func TestWriteFileWithFails(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name  string
		size  int64
		write func(w io.WriterAt) error
		want  error
	}{
		{"write fails", 100, func(w io.WriterAt) error { return boom }, boom},
		{"too few bytes", 100, func(w io.WriterAt) error { return writePattern(w, 99, 10, 1) }, nil},
		{"too many bytes", 100, func(w io.WriterAt) error { return writePattern(w, 101, 10, 1) }, nil},
		{"negative size", -1, func(w io.WriterAt) error { return nil }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.bin")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := WriteFileWith(path, tc.size, tc.write)
			if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, cmpOr(tc.want, "an error"))
			}
			if got, _ := os.ReadFile(path); string(got) != "old" {
				t.Fatalf("old file changed to %q", got)
			}
			assertOnlyFile(t, dir, "out.bin")
		})
	}
}

// cmpOr returns err, or what when err is nil.
func cmpOr(err error, what string) any {
	if err != nil {
		return err
	}
	return what
}

func TestWriteFileWithWriteFault(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	defer InjectWriteFault(1000)()
	err := WriteFileWith(path, 4000, func(w io.WriterAt) error { return writePattern(w, 4000, 300, 2) })
	if !errors.Is(err, ErrInjected) {
		t.Fatalf("err = %v, want the injected fault", err)
	}
	assertOnlyFile(t, dir, "")
}

func TestWriteFileWithInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	defer resetInterrupt()
	err := WriteFileWith(path, 3000, func(w io.WriterAt) error {
		Interrupt() // the temporary file goes; the write must not land
		return writePattern(w, 3000, 1000, 1)
	})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	assertOnlyFile(t, dir, "")
}
