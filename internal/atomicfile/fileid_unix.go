//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"syscall"
)

// fileID returns "dev:ino" of an existing file.
func fileID(st os.FileInfo) (string, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("id %d:%d", sys.Dev, sys.Ino), true
}
