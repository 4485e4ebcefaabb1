package testkit

import (
	"encoding/binary"
	"hash/crc32"
)

// EXIFSegment returns a JPEG APP1 segment holding EXIF data of orientation.
// The data is in big-endian ("MM") or little-endian ("II") TIFF layout, the
// orientation entry after an unrelated one.
func EXIFSegment(orientation int, bigEndian bool) []byte {
	var order ByteOrder = binary.LittleEndian
	tiffData := []byte("II*\x00")
	if bigEndian {
		order, tiffData = binary.BigEndian, []byte("MM\x00*")
	}
	tiffData = order.AppendUint32(tiffData, 8)
	tiffData = order.AppendUint16(tiffData, 2)
	// ImageDescription (0x010e), ASCII, 4 bytes inline: "abc\0".
	tiffData = order.AppendUint16(tiffData, 0x010e)
	tiffData = order.AppendUint16(tiffData, 2)
	tiffData = order.AppendUint32(tiffData, 4)
	tiffData = append(tiffData, "abc\x00"...)
	// Orientation (0x0112), SHORT, count 1.
	tiffData = order.AppendUint16(tiffData, 0x0112)
	tiffData = order.AppendUint16(tiffData, 3)
	tiffData = order.AppendUint32(tiffData, 1)
	tiffData = order.AppendUint16(tiffData, uint16(orientation))
	tiffData = append(tiffData, 0, 0)
	tiffData = order.AppendUint32(tiffData, 0) // no next IFD
	payload := append([]byte("Exif\x00\x00"), tiffData...)
	seg := []byte{0xff, 0xe1}
	seg = binary.BigEndian.AppendUint16(seg, uint16(2+len(payload)))
	return append(seg, payload...)
}

// WithSegment inserts a marker segment into a JPEG file right after SOI.
func WithSegment(jpg, seg []byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

// PNGChunk returns a PNG chunk with its CRC.
func PNGChunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(c, typ...)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// PNGHeaderOnly returns a PNG whose header lies about the amount of data. It
// is a PNG signature and an 8-bit greyscale IHDR of the given size, with a
// tiny IDAT and IEND.
func PNGHeaderOnly(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, PNGChunk("IHDR", ihdr)...)
	b = append(b, PNGChunk("IDAT", []byte{0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})...)
	return append(b, PNGChunk("IEND", nil)...)
}

// bitWriter writes bits least significant first, as VP8L reads them.
type bitWriter struct {
	buf   []byte
	nbits uint
}

func (w *bitWriter) write(v uint32, n uint) {
	for i := range n {
		if w.nbits%8 == 0 {
			w.buf = append(w.buf, 0)
		}
		w.buf[len(w.buf)-1] |= byte(v>>i&1) << (w.nbits % 8)
		w.nbits++
	}
}

// WebPTwoColour returns a lossless WebP (VP8L) file of a black and white
// image. The image is w x h, its pixels black where black(x, y) and white
// elsewhere: every channel has a two-symbol prefix code (0 and 255, one bit a
// symbol), alpha a one-symbol code of 255 (no bits).
func WebPTwoColour(w, h int, black func(x, y int) bool) []byte {
	var bw bitWriter
	bw.write(uint32(w-1), 14)
	bw.write(uint32(h-1), 14)
	bw.write(0, 1) // alpha not used
	bw.write(0, 3) // version
	bw.write(0, 1) // no transform
	bw.write(0, 1) // no colour cache
	bw.write(0, 1) // no meta prefix codes
	twoSymbols := func() {
		bw.write(1, 1) // simple code
		bw.write(1, 1) // two symbols
		bw.write(1, 1) // first symbol has 8 bits
		bw.write(0, 8)
		bw.write(255, 8)
	}
	twoSymbols() // green
	twoSymbols() // red
	twoSymbols() // blue
	bw.write(1, 1)
	bw.write(0, 1)
	bw.write(1, 1)
	bw.write(255, 8) // alpha: 255 only
	bw.write(1, 1)
	bw.write(0, 1)
	bw.write(0, 1)
	bw.write(0, 1) // distance: 0 only
	for y := range h {
		for x := range w {
			bit := uint32(1)
			if black(x, y) {
				bit = 0
			}
			bw.write(bit, 1) // green
			bw.write(bit, 1) // red
			bw.write(bit, 1) // blue
		}
	}
	vp8l := append([]byte{0x2f}, bw.buf...)
	chunk := binary.LittleEndian.AppendUint32([]byte("VP8L"), uint32(len(vp8l)))
	chunk = append(chunk, vp8l...)
	if len(chunk)%2 == 1 {
		chunk = append(chunk, 0) // RIFF pads chunks to an even size
	}
	out := binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(4+len(chunk)))
	out = append(out, "WEBP"...)
	return append(out, chunk...)
}
