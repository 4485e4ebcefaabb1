package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileSuccess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	err := WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "hello")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "hello" {
		t.Fatalf("got %q, %v", got, err)
	}
	assertOnlyFile(t, filepath.Dir(path), "out.txt")
}

func TestWriteFileFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	boom := errors.New("boom")
	err := WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	assertOnlyFile(t, dir, "")
}

func TestWriteFileFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	WriteFile(path, func(w io.Writer) error { return errors.New("boom") })
	got, _ := os.ReadFile(path)
	if string(got) != "old" {
		t.Fatalf("old file changed to %q", got)
	}
	assertOnlyFile(t, dir, "out.txt")
}

func TestWriteFileMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "out.txt")
	if err := WriteFile(path, func(io.Writer) error { return nil }); err == nil {
		t.Fatal("no error for a missing folder")
	}
}

// assertOnlyFile checks that dir holds exactly the named file, or nothing
// when name is empty.
func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	got := names(t, dir)
	if (name == "" && len(got) != 0) || (name != "" && (len(got) != 1 || got[0] != name)) {
		t.Fatalf("folder holds %v, want only %q", got, name)
	}
}
