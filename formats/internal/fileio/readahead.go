package fileio

import (
	"errors"
	"io"
	"sync"
)

// block is a filled buffer and the error that ended the source, if any.
type readBlock struct {
	b   []byte
	err error
}

// Readahead reads a stream ahead of its consumer. A goroutine fills a small
// ring of buffers from the source (decompressing, for a gzip source, and
// checking its checksum) while the consumer takes the bytes out and works on
// them, so the two overlap on two cores.
//
// A Readahead is an [io.Reader] that delivers the source's bytes and then its
// error, exactly as the source gave them, read ahead by up to the ring's
// size. Close stops the reading goroutine; a Readahead must be closed.
type Readahead struct {
	full chan readBlock
	free chan []byte
	done chan struct{}
	wg   sync.WaitGroup
	once sync.Once
	// cur is the unread part of the block being consumed, buf its whole
	// buffer; err is the source's error once its last bytes are taken.
	cur, buf []byte
	err      error
}

// NewReadahead starts reading src ahead into count buffers of size bytes. A
// count of at least 2 keeps the source busy while a buffer is consumed.
func NewReadahead(src io.Reader, size, count int) *Readahead {
	size, count = max(size, 1), max(count, 1)
	r := &Readahead{
		full: make(chan readBlock, count),
		free: make(chan []byte, count),
		done: make(chan struct{}),
	}
	for range count {
		r.free <- make([]byte, size)
	}
	r.wg.Add(1)
	go r.fill(src)
	return r
}

// fill reads src into free buffers until it fails or ends, or the
// Readahead is closed.
func (r *Readahead) fill(src io.Reader) {
	defer r.wg.Done()
	for {
		var buf []byte
		select {
		case buf = <-r.free:
		case <-r.done:
			return
		}
		n, err := 0, error(nil)
		for empty := 0; n < len(buf) && err == nil; {
			var k int
			k, err = src.Read(buf[n:])
			n += k
			if k == 0 && err == nil {
				if empty++; empty == 100 {
					err = io.ErrNoProgress
				}
			}
		}
		select {
		case r.full <- readBlock{buf[:n], err}:
		case <-r.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read delivers the next bytes of the source, then the source's error. The
// error comes once every byte before it has been delivered.
func (r *Readahead) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.buf != nil {
			r.free <- r.buf[:cap(r.buf)]
			r.buf = nil
		}
		b := <-r.full
		r.cur, r.buf, r.err = b.b, b.b, b.err
		if len(p) == 0 {
			return 0, nil
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// errClosed is returned by Read after Close.
var errReadaheadClosed = errors.New("readahead: read after close")

// Close stops the reading goroutine and waits for it to return. The source is
// not read after Close returns. It always returns nil.
func (r *Readahead) Close() error {
	r.once.Do(func() {
		close(r.done)
		r.wg.Wait()
		r.cur, r.buf, r.err = nil, nil, errReadaheadClosed
	})
	return nil
}
