package band

import "sync"

// wordPool keeps large scratch buffers (run edges, mask caches) between
// labeling calls: a fresh one costs a page fault every few thousand
// pixels, which serializes threads in the kernel.
var wordPool sync.Pool

// GetWords returns a buffer of n words, zeroed.
func GetWords(n int) []uint64 {
	if p, ok := wordPool.Get().(*[]uint64); ok && cap(*p) >= n {
		s := (*p)[:n]
		clear(s)
		return s
	}
	return make([]uint64, n)
}

// PutWords hands a buffer from GetWords back for reuse.
func PutWords(s []uint64) {
	if cap(s) > 0 {
		wordPool.Put(&s)
	}
}
