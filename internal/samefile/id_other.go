//go:build !unix

package samefile

import "os"

// fileID reports false: files are told apart by their resolved paths.
func fileID(os.FileInfo) (string, bool) { return "", false }
