//go:build !linux

package filemap

import "os"

// mapRegion is not available here: the caller reads the file.
func mapRegion(f *os.File, off int64, length int) ([]byte, error) { return nil, ErrUnsupported }

// unmapRegion is never reached here.
func unmapRegion(b []byte) error { return nil }
