package fileio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/cclabel/cclabel/imagegraph"
)

// ErrNoMap reports that this system or file cannot be mapped. The caller
// reads the file instead.
var ErrNoMap = errors.New("filemap: mapping not supported")

// Map maps length bytes of f from offset off read-only. It returns them with
// the function that unmaps them (later calls do nothing; the bytes must not
// be used after the first). f may be closed once Map returns. The pages are
// mapped in at once (read from disk if they are not cached), so the first
// pass over the bytes takes no faults. A file that is not a regular file, an
// empty region and systems without mmap give [ErrNoMap].
//
// A mapped file costs no new memory when it is in the page cache, while
// reading it costs a buffer of its size whose every page the kernel must
// supply on first write. The mapping is private and read-only: a write
// through the samples faults, a change by another process shows, and a file
// truncated under the mapping makes reads past its new end fault (SIGBUS), as
// with any mapped file.
func Map(f *os.File, off, length int64) ([]byte, func(), error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("filemap: %w", err)
	}
	if !st.Mode().IsRegular() || length <= 0 || off < 0 {
		return nil, nil, ErrNoMap
	}
	if off+length > st.Size() {
		return nil, nil, fmt.Errorf("filemap: %d bytes from offset %d pass the file's end (%d bytes)", length, off, st.Size())
	}
	page := int64(os.Getpagesize())
	start := off &^ (page - 1)
	span := off - start + length
	if int64(int(span)) != span {
		return nil, nil, ErrNoMap
	}
	b, err := mapRegion(f, start, int(span))
	if err != nil {
		return nil, nil, err
	}
	var once sync.Once
	unmap := func() { once.Do(func() { _ = unmapRegion(b) }) }
	return b[off-start:], unmap, nil
}

// hostBigEndian is whether this machine stores numbers big-endian.
var hostBigEndian = binary.NativeEndian.Uint16([]byte{0, 1}) == 1

// MapUsable says whether samples of kind stored at off can be used in place.
// off is a file offset, and the samples are big-endian or not. One-byte
// samples can always be used; wider ones in the machine's byte order at an
// offset aligned to their size (the mapping starts on a page, so the samples
// are then aligned in memory too).
func MapUsable(kind imagegraph.SampleKind, off int64, bigEndian bool) bool {
	size := int64(kind.Size())
	return size == 1 || (size > 1 && bigEndian == hostBigEndian && off%size == 0)
}

// MapSamples maps the n samples of kind stored at offset off of f. See
// [MapUsable]; the caller has checked that the file holds them. It returns
// them with the function that unmaps them. When they cannot be used in place
// or the file cannot be mapped it returns [ErrNoMap], or [Map]'s error.
func MapSamples(f *os.File, kind imagegraph.SampleKind, n int, off int64, bigEndian bool) (imagegraph.Data, func(), error) {
	if n <= 0 || kind == imagegraph.RGB || !MapUsable(kind, off, bigEndian) {
		return nil, nil, ErrNoMap
	}
	b, unmap, err := Map(f, off, int64(n)*int64(kind.Size()))
	if err != nil {
		return nil, nil, err
	}
	s, err := imagegraph.ViewBytes(kind, b)
	if err != nil {
		unmap()
		return nil, nil, ErrNoMap
	}
	return s, unmap, nil
}
