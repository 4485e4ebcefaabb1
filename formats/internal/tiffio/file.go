package tiffio

import (
	"errors"
	"io"
)

// pageFile presents a classic TIFF file held in memory with its
// first-IFD offset set to one page's IFD and, optionally, bytes appended
// at an even offset after the data (a band's IFD and values), so that a
// decoder of the first page decodes that page. It is an io.Reader and an
// io.ReaderAt; the data is shared, never written.
type pageFile struct {
	data []byte
	head [8]byte
	// tail is placed at offset tailAt (len(data) rounded up to even); the
	// byte between them, if any, reads as 0.
	tail   []byte
	tailAt int64
	pos    int64
}

// newPageFile returns the file data whose first IFD is at ifd, with tail
// appended; data must start with a classic TIFF header.
func newPageFile(data []byte, ifd uint32, tail []byte) *pageFile {
	f := &pageFile{data: data, tail: tail, tailAt: tailOffset(data)}
	copy(f.head[:], data)
	orderOf(data).PutUint32(f.head[4:], ifd)
	return f
}

// tailOffset is where bytes appended to data start.
func tailOffset(data []byte) int64 { return int64(len(data)+1) &^ 1 }

// size is the length of the virtual file.
func (f *pageFile) size() int64 { return f.tailAt + int64(len(f.tail)) }

// ReadAt reads the virtual file.
func (f *pageFile) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("tiff: negative offset")
	}
	n := 0
	for n < len(b) {
		at := off + int64(n)
		var k int
		switch {
		case at < int64(len(f.head)) && at < int64(len(f.data)):
			k = copy(b[n:], f.head[at:min(int64(len(f.head)), int64(len(f.data)))])
		case at < int64(len(f.data)):
			k = copy(b[n:], f.data[at:])
		case at < f.tailAt:
			b[n], k = 0, 1
		case at < f.size():
			k = copy(b[n:], f.tail[at-f.tailAt:])
		default:
			return n, io.EOF
		}
		n += k
	}
	return n, nil
}

// Read reads sequentially from the current position.
func (f *pageFile) Read(b []byte) (int, error) {
	n, err := f.ReadAt(b, f.pos)
	f.pos += int64(n)
	if n > 0 && err == io.EOF {
		err = nil
	}
	return n, err
}
