package raster

import "sync"

// LabelBuffers keeps label arrays of finished files for the next files. A
// batch thus touches fresh memory for its first few files only: a fresh array
// of hundreds of MiB costs a page fault per 4 KiB on its first write. It
// keeps uint32 arrays and, for labels downloaded narrowed
// ([cclabel.Labeler.LabelRasterNarrow]), uint16 ones. It is safe for
// concurrent use; the zero value keeps nothing (Get always misses).
type LabelBuffers struct {
	mu     sync.Mutex
	free   [][]uint32
	free16 [][]uint16
	// Keep bounds how many idle arrays of each type are kept.
	Keep int
}

// Get returns an idle array with room for n labels, resliced to n. It returns
// nil when none fits (the labeler then allocates). Its contents are stale:
// the labelers overwrite every entry.
func (b *LabelBuffers) Get(n int) []uint32 {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return take(&b.free, n)
}

// Get16 is Get for uint16 arrays.
func (b *LabelBuffers) Get16(n int) []uint16 {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return take(&b.free16, n)
}

// Put hands an array back once nothing refers to it any more. Beyond Keep
// idle arrays, the smallest is dropped.
func (b *LabelBuffers) Put(s []uint32) {
	if b == nil || cap(s) == 0 || b.Keep <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	keep(&b.free, s, b.Keep)
}

// Put16 is Put for uint16 arrays.
func (b *LabelBuffers) Put16(s []uint16) {
	if b == nil || cap(s) == 0 || b.Keep <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	keep(&b.free16, s, b.Keep)
}

// take removes and returns the smallest array of free with room for n,
// resliced to n; nil when none has.
func take[T any](free *[][]T, n int) []T {
	best := -1
	for i, s := range *free {
		if cap(s) >= n && (best < 0 || cap(s) < cap((*free)[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	s := (*free)[best][:n]
	*free = append((*free)[:best], (*free)[best+1:]...)
	return s
}

// keep adds s to free, dropping the smallest array beyond limit.
func keep[T any](free *[][]T, s []T, limit int) {
	*free = append(*free, s[:0])
	if len(*free) > limit {
		small := 0
		for i, f := range *free {
			if cap(f) < cap((*free)[small]) {
				small = i
			}
		}
		*free = append((*free)[:small], (*free)[small+1:]...)
	}
}
