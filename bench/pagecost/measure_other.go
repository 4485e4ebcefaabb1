//go:build !linux

package main

import "errors"

// measure needs Linux's mmap, madvise and memfd.
func measure(n, runs int) error { return errors.New("Linux only") }
