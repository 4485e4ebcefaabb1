package testkit

import (
	"encoding/binary"
)

// ByteOrder reads and appends in one byte order.
type ByteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// TIFFPage is one page of a hand-built TIFF file. It is 8 or 16-bit
// greyscale, one strip.
type TIFFPage struct {
	Width, Height int
	Bits          int // 8 or 16
	Photometric   int // 0 WhiteIsZero, 1 BlackIsZero
	Compression   int // 1 none, 32773 PackBits
	Strip         []byte
}

// BuildTIFF builds a classic TIFF file holding pages. Each strip is followed
// by its IFD; it returns the file with the offsets of the IFDs.
func BuildTIFF(order ByteOrder, pages ...TIFFPage) ([]byte, []int) {
	b := []byte("II*\x00")
	if order == binary.BigEndian {
		b = []byte("MM\x00*")
	}
	b = order.AppendUint32(b, 0) // first IFD, patched below
	link := 4                    // where the pointer to the next IFD goes
	var ifds []int
	for _, p := range pages {
		stripAt := len(b)
		b = append(b, p.Strip...)
		if len(b)%2 == 1 {
			b = append(b, 0)
		}
		order.PutUint32(b[link:], uint32(len(b)))
		ifds = append(ifds, len(b))
		type entry struct{ tag, typ, value int }
		entries := []entry{
			{256, 4, p.Width}, {257, 4, p.Height}, {258, 3, p.Bits}, {259, 3, p.Compression},
			{262, 3, p.Photometric}, {273, 4, stripAt}, {277, 3, 1}, {278, 4, p.Height},
			{279, 4, len(p.Strip)},
		}
		b = order.AppendUint16(b, uint16(len(entries)))
		for _, e := range entries {
			b = order.AppendUint16(b, uint16(e.tag))
			b = order.AppendUint16(b, uint16(e.typ))
			b = order.AppendUint32(b, 1)
			if e.typ == 3 {
				b = order.AppendUint16(b, uint16(e.value))
				b = append(b, 0, 0)
			} else {
				b = order.AppendUint32(b, uint32(e.value))
			}
		}
		link = len(b)
		b = order.AppendUint32(b, 0)
	}
	return b, ifds
}

// GreyStrip returns a w x h greyscale image's samples as a TIFF strip. The
// strip has the given bit depth and byte order; value(x, y) gives each
// sample.
func GreyStrip(order ByteOrder, w, h, bits int, value func(x, y int) int) []byte {
	var s []byte
	for y := range h {
		for x := range w {
			if bits == 16 {
				s = order.AppendUint16(s, uint16(value(x, y)))
			} else {
				s = append(s, uint8(value(x, y)))
			}
		}
	}
	return s
}

// PackBits compresses data with PackBits. It uses runs for repeats of three
// or more bytes and literals otherwise.
func PackBits(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); {
		run := 1
		for i+run < len(data) && run < 128 && data[i+run] == data[i] {
			run++
		}
		if run >= 3 {
			out = append(out, byte(257-run), data[i])
			i += run
			continue
		}
		lit := 1
		for i+lit < len(data) && lit < 128 &&
			!(i+lit+2 < len(data) && data[i+lit] == data[i+lit+1] && data[i+lit] == data[i+lit+2]) {
			lit++
		}
		out = append(out, byte(lit-1))
		out = append(out, data[i:i+lit]...)
		i += lit
	}
	return out
}

// TwoByTwo is a tiny 8-bit page for hand-built TIFF files.
var TwoByTwo = TIFFPage{Width: 2, Height: 2, Bits: 8, Photometric: 1, Compression: 1, Strip: []byte{1, 2, 3, 4}}

// BigTIFF returns a BigTIFF file with n empty IFDs chained one after the
// other.
func BigTIFF(n int) []byte {
	b := []byte("II+\x00\x08\x00\x00\x00")
	b = binary.LittleEndian.AppendUint64(b, 16)
	for i := range n {
		b = binary.LittleEndian.AppendUint64(b, 0) // no entries
		next := uint64(len(b) + 8)
		if i == n-1 {
			next = 0
		}
		b = binary.LittleEndian.AppendUint64(b, next)
	}
	return b
}
