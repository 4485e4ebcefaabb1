package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// MaxThreads bounds the goroutines any one call starts.
const MaxThreads = 256

// ClampThreads returns the number of goroutines to use for n items.
//
// threads is the requested count: 0 or less means GOMAXPROCS, and there
// are never more goroutines than items or [MaxThreads].
func ClampThreads(threads, n int) int {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = min(threads, MaxThreads, n)
	return max(threads, 1)
}

// Ranges splits [0, n) into one contiguous range per goroutine and
// runs body on each.
func Ranges(n, threads int, body func(lo, hi int)) {
	RangesIndexed(n, threads, func(_, lo, hi int) { body(lo, hi) })
}

// RangesIndexed is [Ranges] with the goroutine's index passed to body.
//
// The index t lies in 0 <= t < ClampThreads(threads, n).
func RangesIndexed(n, threads int, body func(t, lo, hi int)) {
	threads = ClampThreads(threads, n)
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

// DynamicChunk is how many consecutive vertices a goroutine takes at a
// time.
//
// It is the chunk of dynamically scheduled loops ([Chunks]).
const DynamicChunk = 1 << 12

// Chunks hands out contiguous chunks of [0, n) to goroutines on demand.
//
// That balances loops whose cost per vertex varies (skewed degrees). Each
// chunk holds [DynamicChunk] items, the last one fewer.
func Chunks(n, threads int, body func(lo, hi int)) {
	threads = ClampThreads(threads, (n+DynamicChunk-1)/DynamicChunk)
	if threads == 1 {
		body(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			for {
				lo := int(next.Add(DynamicChunk)) - DynamicChunk
				if lo >= n {
					return
				}
				body(lo, min(lo+DynamicChunk, n))
			}
		})
	}
	wg.Wait()
}
