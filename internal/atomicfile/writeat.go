package atomicfile

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// ChunkBytes is the size of the pieces [WriteFileAt] hands to its fill
// function: every piece but the last has this size, and each starts at a
// multiple of it.
const ChunkBytes = 1 << 20

// FillFunc writes bytes off..off+len(dst) of a file into dst.
//
// [WriteFileAt] calls it on disjoint pieces from several goroutines at once.
// It writes dst on the goroutine that called it, and keeps it no longer
// than the call: dst may be a mapping of the file.
type FillFunc func(dst []byte, off int64) error

// WriteFileAt creates path, size bytes long, filled by fill.
//
// The file's pieces ([ChunkBytes] each, the last shorter) are filled into
// buffers on threads goroutines at once (0: GOMAXPROCS) while the calling
// goroutine writes the filled ones at their offsets: the packing of the
// bytes runs on every core, and the copies into the file stay on one
// writer, as a file system takes one file's writes one at a time. At most
// 2*threads+1 buffers are in use. A file of [MapMinBytes] or more on tmpfs
// is mapped instead, and its pieces filled in place. The file is renamed as [WriteFile]
// renames it; when fill or a write fails, the pieces not yet begun are
// not filled, the temporary file is removed and the first error returned
// (fill's as it is).
func WriteFileAt(path string, size int64, threads int, fill FillFunc) (err error) {
	if size < 0 {
		return fmt.Errorf("write %s: negative size %d", path, size)
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	tmp, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	done := false // also false while a panic unwinds
	defer func() {
		if err != nil || !done {
			tmp.Close()
			forget(tmp.Name(), true)
		}
	}()
	if m := mapFile(tmp, path, size); m != nil {
		err = m.run(func() error {
			return chunks(size, threads, func(lo, hi int64) error { return m.fill(lo, hi-lo, fill) })
		})
	} else {
		err = fillWritten(tmp, path, size, threads, fill)
	}
	if err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	return finish(tmp.Name(), path)
}

// fillWritten fills size bytes of f through fill: pieces are filled
// into buffers on threads goroutines and written, in the order they are
// done, at their offsets by the calling goroutine, so that one writer
// copies into the page cache while the others fill. It returns fill's
// error as it is, a write's with path.
func fillWritten(f *os.File, path string, size int64, threads int, fill FillFunc) error {
	w := faultWriterAt(f)
	pieces := (size + ChunkBytes - 1) / ChunkBytes
	threads = int(min(int64(threads), pieces))
	if threads == 0 {
		return nil
	}
	type piece struct {
		buf []byte
		off int64
		err error
	}
	// Buffers in flight: filled, being filled or being written.
	inFlight := 2*threads + 1
	free := make(chan []byte, inFlight)
	for range inFlight {
		free <- nil // made on first use
	}
	done := make(chan piece, inFlight)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			for !stop.Load() {
				i := next.Add(1) - 1
				if i >= pieces {
					return
				}
				buf := <-free
				if buf == nil {
					buf = make([]byte, ChunkBytes)
				}
				off := i * ChunkBytes
				buf = buf[:min(ChunkBytes, size-off)]
				done <- piece{buf, off, fill(buf, off)}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	var first error
	for p := range done {
		if first == nil {
			first = p.err
			if first == nil {
				if _, err := w.WriteAt(p.buf, p.off); err != nil {
					first = fmt.Errorf("write %s: %w", path, err)
				}
			}
			stop.Store(first != nil)
		}
		free <- p.buf[:0]
	}
	return first
}

// chunks runs body on the pieces of [0, size) on threads goroutines,
// each taking the next piece when done with one, until all are done or
// one fails. It returns the first error.
func chunks(size int64, threads int, body func(lo, hi int64) error) error {
	pieces := (size + ChunkBytes - 1) / ChunkBytes
	threads = int(min(int64(threads), pieces))
	var next atomic.Int64
	var failed atomic.Bool
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			for !failed.Load() {
				lo := (next.Add(1) - 1) * ChunkBytes
				if lo >= size {
					return
				}
				if err := body(lo, min(lo+ChunkBytes, size)); err != nil {
					once.Do(func() { first = err })
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return first
}

// WriteFileWith creates path, size bytes long, through write, which writes
// every byte once at its offset into w, from as many goroutines at once as
// it likes, and returns only once all its calls of w.WriteAt have returned.
// It suits data made in pieces that are complete in memory: they go
// straight into the file, with no buffer of their own (into a mapping of
// it, on every core, for a file of [MapMinBytes] or more on tmpfs). The
// file is renamed as [WriteFile] renames it; when write fails, or the
// bytes written do not add up to size, the temporary file is removed and
// the error returned (write's as it is).
func WriteFileWith(path string, size int64, write func(w io.WriterAt) error) (err error) {
	if size < 0 {
		return fmt.Errorf("write %s: negative size %d", path, size)
	}
	tmp, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	done := false // also false while a panic unwinds
	defer func() {
		if err != nil || !done {
			tmp.Close()
			forget(tmp.Name(), true)
		}
	}()
	w := &countingWriterAt{w: faultWriterAt(tmp), path: path}
	if m := mapFile(tmp, path, size); m != nil {
		w.w = m
		err = m.run(func() error { return write(w) })
	} else {
		err = write(w)
	}
	if err != nil {
		return err
	}
	if n := w.n.Load(); n != size {
		return fmt.Errorf("write %s: %d bytes written, want %d", path, n, size)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	return finish(tmp.Name(), path)
}

// countingWriterAt counts the bytes written through it and names path in
// its errors.
type countingWriterAt struct {
	w    io.WriterAt
	path string
	n    atomic.Int64
}

func (c *countingWriterAt) WriteAt(p []byte, off int64) (int, error) {
	n, err := c.w.WriteAt(p, off)
	c.n.Add(int64(n))
	if err != nil {
		err = fmt.Errorf("write %s: %w", c.path, err)
	}
	return n, err
}
