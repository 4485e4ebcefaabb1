package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// write writes text to path through WriteFile.
func write(path, text string) error {
	return WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// names returns the sorted names in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestGroupCommitsTogether(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.npy"), filepath.Join(dir, "c.csv")
	g, err := NewGroup(a, b, "", "-", c)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Abort()
	for _, p := range []string{a, b} {
		if err := write(p, filepath.Base(p)); err != nil {
			t.Fatal(err)
		}
	}
	got := names(t, dir)
	if len(got) != 2 || !IsTemp(got[0]) || !IsTemp(got[1]) {
		t.Fatalf("before the commit the folder holds %v, want two temporary files", got)
	}
	if tmp := Written(a); !IsTemp(filepath.Base(tmp)) {
		t.Errorf("Written(a) = %s, want its temporary file", tmp)
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.png", "b.npy"}) {
		t.Fatalf("after the commit the folder holds %v", got)
	}
	for _, p := range []string{a, b} {
		if data, _ := os.ReadFile(p); string(data) != filepath.Base(p) {
			t.Errorf("%s holds %q", p, data)
		}
	}
	g.Abort() // after Commit: nothing
	if got := names(t, dir); len(got) != 2 {
		t.Fatalf("Abort after Commit changed the folder: %v", got)
	}
	if err := write(a, "again"); err != nil { // the group is closed: a plain write
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(a); string(data) != "again" {
		t.Errorf("a plain write after the commit left %q", data)
	}
}

func TestGroupAbortKeepsOldFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("old"), 0o644)
	g, err := NewGroup(a, b)
	if err != nil {
		t.Fatal(err)
	}
	write(a, "new")
	if err := WriteFile(b, func(w io.Writer) error { return errors.New("boom") }); err == nil {
		t.Fatal("no error")
	}
	g.Abort()
	if got := names(t, dir); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("folder holds %v, want only the old a", got)
	}
	if data, _ := os.ReadFile(a); string(data) != "old" {
		t.Errorf("a holds %q, want old", data)
	}
}

func TestGroupRefusesSharedPaths(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	g, err := NewGroup(a)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Abort()
	if _, err := NewGroup(filepath.Join(dir, "x"), filepath.Join(dir, ".", "a")); err == nil {
		t.Fatal("a second group took a path held by an open group")
	}
	if _, err := NewGroup(filepath.Join(dir, "y"), filepath.Join(dir, "y")); err == nil {
		t.Fatal("a group took one path twice")
	}
	// The failed groups hold nothing.
	h, err := NewGroup(filepath.Join(dir, "x"), filepath.Join(dir, "y"))
	if err != nil {
		t.Fatalf("paths of failed groups still held: %v", err)
	}
	h.Abort()
}

func TestInterrupt(t *testing.T) {
	defer resetInterrupt()
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	write(c, "committed before")
	g, _ := NewGroup(a, b)
	write(a, "a")
	inWrite, letGo := make(chan struct{}), make(chan struct{})
	finish := make(chan error)
	go func() {
		finish <- WriteFile(filepath.Join(dir, "d"), func(w io.Writer) error {
			io.WriteString(w, "partial")
			close(inWrite)
			<-letGo
			return nil
		})
	}()
	<-inWrite
	lost := Interrupt()
	close(letGo)
	if err := <-finish; !errors.Is(err, ErrInterrupted) {
		t.Errorf("a write in progress at the interrupt: %v", err)
	}
	want := []string{a, b, filepath.Join(dir, "d")}
	if !slices.Equal(lost, want) {
		t.Errorf("Interrupt = %v, want %v", lost, want)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"c"}) {
		t.Errorf("after Interrupt the folder holds %v, want only c", got)
	}
	if err := g.Commit(); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Commit after Interrupt: %v", err)
	}
	if err := write(filepath.Join(dir, "e"), "e"); !errors.Is(err, ErrInterrupted) {
		t.Errorf("WriteFile after Interrupt: %v", err)
	}
	if _, err := Claim(filepath.Join(dir, "f")); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Claim after Interrupt: %v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"c"}) {
		t.Errorf("writes after Interrupt left %v", got)
	}
}

func TestWriteFault(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	text := strings.Repeat("x", 100)
	for _, n := range []int64{0, 1, 50, 99, 100, 200} {
		restore := InjectWriteFault(n)
		err := write(path, text)
		restore()
		if n < 100 {
			if !errors.Is(err, ErrInjected) {
				t.Errorf("fault after %d bytes: %v", n, err)
			}
			if got := names(t, dir); len(got) != 0 {
				t.Errorf("fault after %d bytes left %v", n, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("fault after %d bytes of 100: %v", n, err)
		}
		os.Remove(path)
	}
}
