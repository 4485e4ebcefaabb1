package ecl

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// maxThreads bounds the goroutines any one call starts.
const maxThreads = 256

// clampThreads turns a requested thread count into the number of
// goroutines to use for n items: 0 or less means GOMAXPROCS, and there are
// never more goroutines than items or maxThreads.
func clampThreads(threads, n int) int {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = min(threads, maxThreads, n)
	return max(threads, 1)
}

// parallelRanges splits [0, n) into one contiguous range per goroutine and
// runs body on each.
func parallelRanges(n, threads int, body func(lo, hi int)) {
	parallelRangesIndexed(n, threads, func(_, lo, hi int) { body(lo, hi) })
}

// parallelRangesIndexed is parallelRanges with the goroutine's index
// (0 <= t < clampThreads(threads, n)) passed to body.
func parallelRangesIndexed(n, threads int, body func(t, lo, hi int)) {
	threads = clampThreads(threads, n)
	if threads == 1 {
		body(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for t := range threads {
		lo, hi := n*t/threads, n*(t+1)/threads
		wg.Go(func() { body(t, lo, hi) })
	}
	wg.Wait()
}

// dynamicChunk is the number of consecutive vertices a goroutine takes at a
// time in dynamically scheduled loops.
const dynamicChunk = 1 << 12

// parallelChunks hands out contiguous chunks of [0, n) to goroutines on
// demand, which balances loops whose cost per vertex varies (skewed degrees).
func parallelChunks(n, threads int, body func(lo, hi int)) {
	threads = clampThreads(threads, (n+dynamicChunk-1)/dynamicChunk)
	if threads == 1 {
		body(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			for {
				lo := int(next.Add(dynamicChunk)) - dynamicChunk
				if lo >= n {
					return
				}
				body(lo, min(lo+dynamicChunk, n))
			}
		})
	}
	wg.Wait()
}
