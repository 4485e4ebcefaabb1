//go:build !unix

package atomicfile

import "os"

// fileID reports false: files are told apart by their resolved paths.
func fileID(os.FileInfo) (string, bool) { return "", false }
