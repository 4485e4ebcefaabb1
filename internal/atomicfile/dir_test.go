package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	if err := CheckDir(filepath.Join(dir, "a.png")); err != nil {
		t.Errorf("existing folder: %v", err)
	}
	if err := CheckDir("a.png"); err != nil {
		t.Errorf("current folder: %v", err)
	}
	missing := filepath.Join(dir, "none", "a.png")
	if err := CheckDir(missing); err == nil || err.Error() != "output "+missing+": folder "+filepath.Dir(missing)+" does not exist" {
		t.Errorf("missing folder: %v", err)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	if err := CheckDir(filepath.Join(file, "a.png")); err == nil || !strings.HasSuffix(err.Error(), file+" is not a folder") {
		t.Errorf("file as folder: %v", err)
	}
}
