//go:build !linux

package fileio

import "os"

// mapRegion is not available here: the caller reads the file.
func mapRegion(f *os.File, off int64, length int) ([]byte, error) { return nil, ErrNoMap }

// unmapRegion is never reached here.
func unmapRegion(b []byte) error { return nil }
