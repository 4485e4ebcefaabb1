//go:build !linux

package atomicfile

import "errors"

// exchange is not available here: [replace] renames.
func exchange(a, b string) error { return errors.ErrUnsupported }
