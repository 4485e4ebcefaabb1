package parallel

// discardChunk is how much of a buffer one [Discard] call hands back at a
// time.
const discardChunk = 64 << 20

// Discard hands the memory of s back to the system on threads goroutines,
// where the system allows it; s must not be read or written afterwards
// (its pages read as zeros). A process that is about to exit calls it on
// its largest buffers, so that their pages are freed on every core rather
// than by the exit on one. Below [HugeMinBytes] it does nothing.
func Discard[T any](s []T, threads int) {
	b := pageRange(bytesOf(s))
	if len(b) < HugeMinBytes || !canDiscard {
		return
	}
	chunks := (len(b) + discardChunk - 1) / discardChunk
	Ranges(chunks, threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			discard(b[c*discardChunk : min((c+1)*discardChunk, len(b))])
		}
	})
}
