//go:build !unix

package atomicfile

import (
	"errors"
	"os"
)

// tryLock reports that locks are not taken here: liveness is then asked
// of the process id alone.
func tryLock(*os.File) (bool, error) { return false, errors.ErrUnsupported }
