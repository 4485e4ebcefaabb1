package csrfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"unsafe"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/internal/parallel"
)

// PieceBytes is the size of the pieces [Read] reads with one ReadAt each.
var PieceBytes int64 = 4 << 20

// hostLittle reports whether the host stores integers little-endian, so
// that file bytes can be read straight into the arrays.
var hostLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// ErrShort reports an input shorter than its given size.
var ErrShort = errors.New("csrfile: input shorter than its size")

// Read reads the body of an .egr file of known size in parallel:
// the offsets and neighbours go straight into the graph's arrays, read in
// pieces by threads goroutines. base is the body's offset in ra; read is
// the number of bytes read before it (the header). The errors are the
// streaming reader's, except [ErrShort] for an input shorter than its size;
// offWidth is the width of an offset in the file (4 or 8 bytes).
func Read(ra io.ReaderAt, base, read int64, nodes, edges int64, offWidth int, weights bool, size int64, threads int) (*ecl.Graph, int64, error) {
	w := int64(offWidth)
	offsets := parallel.Alloc[int64](int(nodes + 1))
	nbrs := parallel.Alloc[int32](int(edges))
	offBytes := int64(w) * (nodes + 1)
	body := size - read
	var mu sync.Mutex
	var firstErr error
	end := body // where the input ends, as far as the reads saw
	fail := func(at int64, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err == io.EOF {
			end = min(end, at)
		} else if firstErr == nil {
			firstErr = err
		}
	}
	// readInto fills dst with the bytes at [from, from+len(dst)) of the body.
	readInto := func(dst []byte, from int64) {
		n, err := ra.ReadAt(dst, base+from)
		if n < len(dst) {
			if err == nil || err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			fail(from+int64(n), err)
		}
	}
	type piece struct{ from, to int64 }
	var pieces []piece
	for lo := int64(0); lo < offBytes+4*edges; {
		hi := min(lo+PieceBytes, offBytes+4*edges)
		if lo < offBytes {
			hi = min(hi, offBytes)
		}
		pieces = append(pieces, piece{lo, hi})
		lo = hi
	}
	parallel.Chunks(len(pieces), threads, func(lo, hi int) {
		var buf []byte
		for _, p := range pieces[lo:hi] {
			if p.from >= offBytes {
				i, j := (p.from-offBytes)/4, (p.to-offBytes)/4
				readInto(int32Bytes(nbrs[i:j]), p.from)
				if !hostLittle {
					s := nbrs[i:j]
					for k, x := range s {
						s[k] = int32(bits32(x))
					}
				}
				continue
			}
			i, j := p.from/int64(w), p.to/int64(w)
			if w == 8 && hostLittle {
				readInto(int64Bytes(offsets[i:j]), p.from)
				continue
			}
			if buf == nil {
				buf = make([]byte, min(PieceBytes, offBytes))
			}
			b := buf[:p.to-p.from]
			readInto(b, p.from)
			for k := range offsets[i:j] {
				if w == 8 {
					offsets[i+int64(k)] = int64(binary.LittleEndian.Uint64(b[8*k:]))
				} else {
					offsets[i+int64(k)] = int64(int32(binary.LittleEndian.Uint32(b[4*k:])))
				}
			}
		}
	})
	pieces = nil
	if firstErr != nil {
		return nil, 0, fmt.Errorf("formats: read: %w", firstErr)
	}
	// The weights are not read; their last byte must be there, and nothing
	// after it.
	arrays := offBytes + 4*edges
	want := arrays
	if weights {
		want += 4 * edges
		if end >= body && want > arrays {
			var b [1]byte
			readInto(b[:], want-1)
		}
	}
	if end >= body {
		var b [1]byte
		n, err := ra.ReadAt(b[:], base+want)
		if n > 0 {
			return nil, 0, fmt.Errorf("formats: input is longer than its given size of %d bytes", read+want)
		}
		if err != nil && err != io.EOF {
			return nil, 0, fmt.Errorf("formats: read: %w", err)
		}
	}
	if firstErr != nil {
		return nil, 0, fmt.Errorf("formats: read: %w", firstErr)
	}
	if end < body {
		return nil, read + inputEnd(ra, base, end), ErrShort
	}
	return &ecl.Graph{Offsets: offsets, Neighbors: nbrs}, read + body, nil
}

// inputEnd returns the length of the input in ra after base, which is at
// most hint: the first offset at which no byte can be read.
func inputEnd(ra io.ReaderAt, base, hint int64) int64 {
	lo, hi := int64(0), hint // a byte at lo-1 exists; none at hi
	for lo < hi {
		mid := lo + (hi-lo)/2
		var b [1]byte
		if n, _ := ra.ReadAt(b[:], base+mid); n == 1 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// int32Bytes is the memory of s as bytes.
func int32Bytes(s []int32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s))
}

// int64Bytes is the memory of s as bytes.
func int64Bytes(s []int64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 8*len(s))
}

// bits32 reverses the bytes of x: little-endian file data read on a
// big-endian host.
func bits32(x int32) uint32 {
	u := uint32(x)
	return u>>24 | u>>8&0xff00 | u<<8&0xff0000 | u<<24
}
