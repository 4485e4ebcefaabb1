//go:build !linux

package atomicfile

import "os"

// mapTemp maps nothing: files are mapped on Linux only.
func mapTemp(*os.File, int64) []byte { return nil }

func unmapTemp([]byte) error { return nil }
