package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReplace checks that replace puts the new file at the path and that
// what it says is left at the temporary name is the old file, whatever was
// at the path: nothing, a regular file, a symbolic link (replaced, its
// target untouched) or a directory (an error, both left as they were).
func TestReplace(t *testing.T) {
	for _, at := range []string{"nothing", "file", "symlink", "directory"} {
		t.Run(at, func(t *testing.T) {
			dir := t.TempDir()
			tmp, path, other := filepath.Join(dir, "tmp"), filepath.Join(dir, "out"), filepath.Join(dir, "other")
			if err := os.WriteFile(tmp, []byte("new"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(other, []byte("other"), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			switch at {
			case "file":
				err = os.WriteFile(path, []byte("old"), 0o644)
			case "symlink":
				err = os.Symlink(other, path)
			case "directory":
				err = os.Mkdir(path, 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
			old, err := replace(tmp, path)
			if at == "directory" {
				if err == nil {
					t.Fatal("a file replaced a directory")
				}
				if st, serr := os.Stat(path); serr != nil || !st.IsDir() {
					t.Fatalf("the directory is gone (%v)", serr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, err := os.ReadFile(path); err != nil || string(got) != "new" {
				t.Fatalf("path holds %q (%v), want the new file", got, err)
			}
			if got, _ := os.ReadFile(other); string(got) != "other" {
				t.Fatalf("the symbolic link's target holds %q", got)
			}
			got, err := os.ReadFile(tmp)
			switch {
			case old && (err != nil || string(got) != "old"):
				t.Fatalf("tmp holds %q (%v), want the old file", got, err)
			case !old && !os.IsNotExist(err):
				t.Fatalf("tmp still exists (%v)", err)
			}
		})
	}
}
