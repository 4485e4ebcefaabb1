package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// CheckDir fails when the folder the file path goes to does not exist or
// is not a folder: a command checks its outputs so before any work.
func CheckDir(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("output %s: folder %s does not exist", path, dir)
	}
	if !st.IsDir() {
		return fmt.Errorf("output %s: %s is not a folder", path, dir)
	}
	return nil
}
