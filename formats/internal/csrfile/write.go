package csrfile

import (
	"encoding/binary"
	"io"

	"github.com/cclabel/cclabel/ecl"
)

// Write writes g, valid, as an .egr file without weights: a header of the
// vertex and arc counts and the offsets, each offWidth bytes (4 or 8), then
// the 4-byte neighbour IDs, little-endian, through a buffer of bufBytes. It
// returns the first write error as it is.
func Write(w io.Writer, g *ecl.Graph, offWidth, bufBytes int) error {
	offsets := g.Offsets
	if len(offsets) == 0 {
		offsets = []int64{0}
	}
	e := &encoder{w: w, buf: make([]byte, 0, max(bufBytes, 8))}
	put := func(x int64) {
		if offWidth == 8 {
			e.put8(uint64(x))
		} else {
			e.put4(uint32(x))
		}
	}
	put(int64(len(offsets) - 1))
	put(int64(len(g.Neighbors)))
	for _, x := range offsets {
		put(x)
	}
	for _, x := range g.Neighbors {
		e.put4(uint32(x))
	}
	e.write()
	return e.err
}

// encoder writes little-endian integers through a fixed buffer, keeping
// the first write error.
type encoder struct {
	w   io.Writer
	buf []byte
	err error
}

// put4 appends a 32-bit value.
func (e *encoder) put4(x uint32) {
	if len(e.buf)+4 > cap(e.buf) {
		e.write()
	}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, x)
}

// put8 appends a 64-bit value.
func (e *encoder) put8(x uint64) {
	if len(e.buf)+8 > cap(e.buf) {
		e.write()
	}
	e.buf = binary.LittleEndian.AppendUint64(e.buf, x)
}

// write empties the buffer into the writer.
func (e *encoder) write() {
	if e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}
