package gen

import "sync"

// progress tells a [Synthetic]'s Progress how far its raster is: done of
// total units of work, one a sample of each pass over the raster. A nil
// *progress tells nothing.
type progress struct {
	mu    sync.Mutex
	done  int64
	total int64
	tell  func(done, total int64)
}

// newProgress returns the progress of total units told to tell, or nil
// when tell is nil.
func newProgress(tell func(done, total int64), total int64) *progress {
	if tell == nil {
		return nil
	}
	return &progress{total: total, tell: tell}
}

// add counts n more units done and tells the sum, from any goroutine;
// the calls to tell come one at a time.
func (p *progress) add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += int64(n)
	p.tell(p.done, p.total)
}
