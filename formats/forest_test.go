package formats_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats"
)

// forestOneBased maps vertices to 1-based file IDs and back, for n vertices.
func forestOneBased(n int) (func(int) int64, func(int64) (int32, bool)) {
	return func(v int) int64 { return int64(v) + 1 },
		func(id int64) (int32, bool) { return int32(id - 1), id >= 1 && id <= int64(n) }
}

func TestForestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	id, vertex := forestOneBased(6)
	for _, f := range []*ecl.Forest{
		{U: []int32{0, 0, 3}, V: []int32{1, 2, 5}},
		{},
	} {
		for _, name := range []string{"f.txt", "f.npy", "F.NPY"} {
			path := filepath.Join(dir, name)
			if err := formats.WriteForestFile(path, f, id); err != nil {
				t.Fatal(err)
			}
			got, err := formats.ReadForestFile(path, vertex)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(got.U, f.U) || !slices.Equal(got.V, f.V) {
				t.Fatalf("%s: read back %+v, want %+v", name, got, f)
			}
		}
	}
	text, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
	if string(text) != "" {
		t.Fatalf("empty forest written as %q", text)
	}
}

func TestForestReadErrors(t *testing.T) {
	dir := t.TempDir()
	_, vertex := forestOneBased(3)
	for _, content := range []string{"1 2 3\n", "1 x\n", "1 4\n"} {
		path := filepath.Join(dir, "bad.txt")
		os.WriteFile(path, []byte(content), 0o644)
		if _, err := formats.ReadForestFile(path, vertex); err == nil {
			t.Errorf("%q accepted", content)
		}
	}
	if _, err := formats.ReadForestFile(filepath.Join(dir, "missing.npy"), vertex); err == nil {
		t.Error("missing file accepted")
	}
}
