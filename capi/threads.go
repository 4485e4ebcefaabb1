package main

import "runtime"

// defaultThreads is the thread count 0 stands for: GOMAXPROCS.
func defaultThreads() int { return runtime.GOMAXPROCS(0) }
