package atomicfile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// MapMinBytes is the smallest file [WriteFileAt] and [WriteFileWith] write
// through a shared mapping, on tmpfs with room for it on 64-bit Linux.
const MapMinBytes = 16 << 20

// afterMap, when set (by tests), is called with a temporary file once it is
// mapped.
var afterMap func(f *os.File)

// mapOff, set by benchmarks, writes every file as on a disk's file system.
var mapOff atomic.Bool

// mappedFiles counts the files written through a mapping, for tests.
var mappedFiles atomic.Int64

// mapped is a temporary file's shared mapping, written at offsets from
// any number of goroutines at once.
type mapped struct {
	m    []byte
	path string
}

// mapFile maps f, the fresh temporary file of path, size bytes long, when
// that writes it faster (mapTemp); nil otherwise, f then unchanged.
func mapFile(f *os.File, path string, size int64) *mapped {
	if size < MapMinBytes || failAfter.Load() >= 0 || mapOff.Load() || strconv.IntSize < 64 {
		return nil
	}
	m := mapTemp(f, size)
	if m == nil {
		return nil
	}
	mappedFiles.Add(1)
	if afterMap != nil {
		afterMap(f)
	}
	return &mapped{m: m, path: path}
}

// fill fills bytes off..off+n of the file through f, a fault in the
// mapping (the file system out of room) coming back as an error.
func (w *mapped) fill(off, n int64, f FillFunc) error {
	return w.faulted(func() error { return f(w.m[off:off+n], off) })
}

// WriteAt copies p to offset off of the file: on every core when p spans
// more than [ChunkBytes], else on the calling goroutine.
func (w *mapped) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(w.m))-int64(len(p)) {
		return 0, fmt.Errorf("write %s: %d bytes at %d of a file of %d", w.path, len(p), off, len(w.m))
	}
	put := func(lo, hi int64) error {
		return w.faulted(func() error {
			copy(w.m[off+lo:off+hi], p[lo:hi])
			return nil
		})
	}
	var err error
	if len(p) <= ChunkBytes {
		err = put(0, int64(len(p)))
	} else {
		err = chunks(int64(len(p)), runtime.GOMAXPROCS(0), put)
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// faulted runs f with a memory fault in the mapping turned into an error
// that matches [syscall.ENOSPC]: a page of the file that tmpfs cannot
// allocate ends the write, not the process. Any other panic, a fault
// elsewhere included, goes on.
func (w *mapped) faulted(f func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			fault, ok := r.(interface{ Addr() uintptr })
			base := uintptr(unsafe.Pointer(unsafe.SliceData(w.m)))
			if !ok || fault.Addr() < base || fault.Addr()-base >= uintptr(len(w.m)) {
				panic(r)
			}
			err = fmt.Errorf("write %s: %w: a page of the mapped file could not be allocated (fault at %#x)", w.path, syscall.ENOSPC, fault.Addr())
		}
	}()
	return f()
}

// run runs f, which writes the file, and then ends the mapping, also when f
// panics; the pages written stay in the file.
func (w *mapped) run(f func() error) (err error) {
	defer func() {
		if uerr := unmapTemp(w.m); uerr != nil && err == nil {
			err = fmt.Errorf("write %s: %w", w.path, uerr)
		}
	}()
	return f()
}
