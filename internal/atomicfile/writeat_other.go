//go:build !linux

package atomicfile

import "os"

// fillMapped reports false: files are mapped for writing on Linux only.
func fillMapped(f *os.File, size int64, threads int, fill FillFunc) (bool, error) {
	return false, nil
}
