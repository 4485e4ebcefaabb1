//go:build !unix

package cclabel_test

import "time"

// cpuTime returns 0: CPU times are measured on Unix only.
func cpuTime() time.Duration { return 0 }
