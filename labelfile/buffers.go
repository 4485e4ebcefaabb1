package labelfile

import "sync"

// LabelBuffers keeps label arrays of finished files for the next files of
// a run, so that a batch touches fresh memory for its first few files
// only: a fresh array of hundreds of MiB costs a page fault per 4 KiB on
// its first write. It is safe for concurrent use; the zero value keeps
// nothing (Get always misses).
type LabelBuffers struct {
	mu   sync.Mutex
	free [][]uint32
	// Keep bounds how many idle arrays are kept.
	Keep int
}

// Get returns an idle array with room for n labels, resliced to n, or nil
// when none fits (the labeler then allocates). Its contents are stale:
// the labelers overwrite every entry.
func (b *LabelBuffers) Get(n int) []uint32 {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	best := -1
	for i, s := range b.free {
		if cap(s) >= n && (best < 0 || cap(s) < cap(b.free[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	s := b.free[best][:n]
	b.free = append(b.free[:best], b.free[best+1:]...)
	return s
}

// Put hands an array back once nothing refers to it any more; beyond
// Keep idle arrays, the smallest is dropped.
func (b *LabelBuffers) Put(s []uint32) {
	if b == nil || cap(s) == 0 || b.Keep <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.free = append(b.free, s[:0])
	if len(b.free) > b.Keep {
		small := 0
		for i, f := range b.free {
			if cap(f) < cap(b.free[small]) {
				small = i
			}
		}
		b.free = append(b.free[:small], b.free[small+1:]...)
	}
}
