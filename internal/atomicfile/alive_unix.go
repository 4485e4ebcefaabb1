//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// alive reports whether the process pid exists on this host: signal 0
// checks without sending anything, and only ESRCH says it is gone.
func alive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH)
}
