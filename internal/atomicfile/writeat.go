package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// ChunkBytes is the size of the pieces [WriteFileAt] hands to its fill
// function: every piece but the last has this size, and each starts at a
// multiple of it.
const ChunkBytes = 4 << 20

// FillFunc writes bytes off..off+len(dst) of a file into dst.
//
// [WriteFileAt] calls it on disjoint pieces from several goroutines at once.
type FillFunc func(dst []byte, off int64) error

// WriteFileAt creates path, size bytes long, filled by fill.
//
// The file's pieces ([ChunkBytes] each, the last shorter) are filled on
// threads goroutines at once (0: GOMAXPROCS). Where it can (Linux), the
// temporary file is given its size on disk first and mapped, so that fill
// writes straight into the page cache: no copy, and the page faults spread
// over the goroutines. Elsewhere, or where the file system cannot reserve
// the space, each goroutine fills a buffer and writes it at its offset.
// The file is then renamed as [WriteFile] renames it, and on any failure
// (of fill, of the file system, or a fault on the mapping, such as a
// full disk) the temporary file is removed and the error returned.
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
	defer func() {
		if err != nil {
			tmp.Close()
			forget(tmp.Name(), true)
		}
	}()
	mapped := false
	if failAfter.Load() < 0 { // an injected fault needs the counted writes
		mapped, err = fillMapped(tmp, size, threads, fill)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if !mapped {
		if err := fillWritten(tmp, size, threads, fill); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return finish(tmp.Name(), path)
}

// fillWritten fills size bytes of f through fill into one buffer per
// goroutine, each written at its offset.
func fillWritten(f *os.File, size int64, threads int, fill FillFunc) error {
	w := faultWriterAt(f)
	pool := sync.Pool{New: func() any { b := make([]byte, ChunkBytes); return &b }}
	return chunks(size, threads, func(lo, hi int64) error {
		buf := pool.Get().(*[]byte)
		defer pool.Put(buf)
		b := (*buf)[:hi-lo]
		if err := fill(b, lo); err != nil {
			return err
		}
		_, err := w.WriteAt(b, lo)
		return err
	})
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

// errMapFault is the error of a fault on a mapped output file.
var errMapFault = errors.New("fault on the mapped file (out of disk space?)")

// guardFault runs body, turning a memory fault in it (a mapped file the
// kernel cannot back) into errMapFault.
func guardFault(body func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(runtime.Error); ok && isFault(re) {
				err = errMapFault
				return
			}
			panic(r)
		}
	}()
	return body()
}

// isFault reports whether a runtime error is a memory fault, as
// [debug.SetPanicOnFault] raises it (it has an Addr method).
func isFault(err runtime.Error) bool {
	_, ok := err.(interface{ Addr() uintptr })
	return ok
}
