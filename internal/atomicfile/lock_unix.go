//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive lock (flock) on f without waiting. It
// returns false when another open file holds the lock, and an error when
// the file system takes no locks. The kernel drops a process's locks
// when it ends, however it ends.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
