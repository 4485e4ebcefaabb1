//go:build !unix

package csrfile

import "os"

// mapFile refuses: this system has no mmap.
func mapFile(*os.File, int) ([]byte, error) { return nil, ErrNoMap }

// unmapFile does nothing.
func unmapFile([]byte) error { return nil }
