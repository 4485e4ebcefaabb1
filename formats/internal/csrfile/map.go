package csrfile

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/parallel"
)

// MapMinBytes is the smallest file that callers of [Map] map; smaller ones
// are read, which costs less than setting up a mapping.
var MapMinBytes int64 = 32 << 20

// ErrNoMap reports that a file cannot be mapped here: [Read] it instead.
var ErrNoMap = errors.New("csrfile: file cannot be mapped")

// Map maps the .egr file f, of size bytes, copy-on-write, and returns
// its graph, whose neighbour array (and 8-byte offsets) are the mapped file
// itself: no copy is made and no fresh memory is faulted in, and writes to
// the arrays stay private. base is the offset of the offsets array in the
// file; offWidth is the width of an offset in the file (4 or 8 bytes).
// The size must be the one the header implies (with or without weights).
// Call release once the graph is no longer used; the arrays must not be
// touched after it, and the file must not be truncated or rewritten in
// place while they are in use. It returns [ErrNoMap] where mapping is not
// possible (a big-endian host, an unaligned array, a system without mmap,
// a file the system refuses to map) and an error for a file cut short
// after its size was taken; [Read] then reads the file and reports it.
func Map(f *os.File, base, nodes, edges int64, offWidth int, size int64, threads int) (g *ecl.Graph, release func() error, err error) {
	w := int64(offWidth)
	nbrAt := base + w*(nodes+1)
	if !hostLittle || size < nbrAt+4*edges || base%w != 0 || size != int64(int(size)) {
		return nil, nil, ErrNoMap
	}
	data, err := mapFile(f, int(size))
	if err != nil {
		return nil, nil, ErrNoMap
	}
	if err := populate(data[base&^(4<<10-1):nbrAt+4*edges], threads); err != nil {
		unmapFile(data)
		return nil, nil, err
	}
	nbrs := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(data[nbrAt:]))), edges)
	var offsets []int64
	if w == 8 {
		offsets = unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(data[base:]))), nodes+1)
	} else {
		src := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(data[base:]))), nodes+1)
		offsets = parallel.Alloc[int64](int(nodes + 1))
		parallel.Ranges(len(offsets), threads, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				offsets[i] = int64(src[i])
			}
		})
	}
	return &ecl.Graph{Offsets: offsets, Neighbors: nbrs}, func() error { return unmapFile(data) }, nil
}

// populateChunk is the part of a mapping one populate call covers.
const populateChunk = 8 << 20 // a multiple of the page size

// populate maps the file pages of b, which starts on a page, in threads
// goroutines, so that the checks that follow take no page faults one by
// one. Where the kernel cannot do it, the pages fault in on first use as
// usual. It fails when the file is shorter than the mapping (it was cut
// after its size was taken), where a read would raise SIGBUS.
func populate(b []byte, threads int) error {
	chunks := (len(b) + populateChunk - 1) / populateChunk
	var mu sync.Mutex
	var first error
	parallel.Chunks(chunks, threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			err := populateRead(b[c*populateChunk : min((c+1)*populateChunk, len(b))])
			if err == nil {
				continue
			}
			if err != ErrNoMap && err != syscall.EINVAL && err != syscall.ENOSYS {
				mu.Lock()
				if first == nil {
					first = fmt.Errorf("csrfile: the file changed while it was read: %w", err)
				}
				mu.Unlock()
			}
			return
		}
	})
	return first
}
