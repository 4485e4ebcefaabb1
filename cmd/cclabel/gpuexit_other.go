//go:build !linux

package main

import (
	"os"
	"time"
)

// handOffGPU does nothing: the GPU backend runs on Linux only.
func handOffGPU(time.Duration) error { return nil }

// holdGPU exits: no holder is started on this system.
func holdGPU(string) { os.Exit(0) }
