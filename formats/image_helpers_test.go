package formats

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// blockSize is the side of the flat blocks of the test patterns: big
// enough that JPEG keeps the middle of each block close to its value.
const blockSize = 16

// blockGrey is the grey value of block (bx, by) of a 3x2-block pattern:
// all six differ by at least 40.
func blockGrey(bx, by int) uint8 { return uint8(20 + 40*(by*3+bx)) }

// blockColour is the colour of block (bx, by) of a 3x2-block pattern: all
// six are far apart.
func blockColour(bx, by int) color.RGBA {
	return [6]color.RGBA{
		{230, 30, 30, 255}, {30, 200, 30, 255}, {30, 30, 230, 255},
		{230, 230, 30, 255}, {30, 220, 220, 255}, {20, 20, 20, 255},
	}[by*3+bx]
}

// greyPattern returns a 48x32 grey image of 3x2 flat blocks (blockGrey),
// asymmetric under every flip and rotation.
func greyPattern() *image.Gray {
	img := image.NewGray(image.Rect(0, 0, 3*blockSize, 2*blockSize))
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			img.Pix[y*img.Stride+x] = blockGrey(x/blockSize, y/blockSize)
		}
	}
	return img
}

// colourPattern returns a 48x32 colour image of 3x2 flat blocks
// (blockColour).
func colourPattern() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 3*blockSize, 2*blockSize))
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			img.SetRGBA(x, y, blockColour(x/blockSize, y/blockSize))
		}
	}
	return img
}

// gray16Pattern returns a w x h 16-bit image whose values use both bytes.
func gray16Pattern(w, h int) *image.Gray16 {
	img := image.NewGray16(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetGray16(x, y, color.Gray16{Y: uint16(1000*x + 7*y + 300)})
		}
	}
	return img
}

// encodePNG, encodeJPEG, encodeGIF, encodeBMP and encodeTIFF encode img in
// their format, failing the test on error.
func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeGIF(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeBMP(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bmp.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeTIFF(t testing.TB, img image.Image, opts *tiff.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tiff.Encode(&b, img, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// exifSegment returns a JPEG APP1 segment holding EXIF data with the given
// orientation, in big-endian ("MM") or little-endian ("II") TIFF layout,
// the orientation entry after an unrelated one.
func exifSegment(orientation int, bigEndian bool) []byte {
	var order byteOrder = binary.LittleEndian
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

// withSegment inserts a marker segment into a JPEG file right after SOI.
func withSegment(jpg, seg []byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

// pngChunk returns a PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(c, typ...)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// pngHeaderOnly returns a PNG signature and an 8-bit greyscale IHDR of the
// given size, with a tiny IDAT and IEND: a header that lies about the
// amount of data.
func pngHeaderOnly(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, pngChunk("IHDR", ihdr)...)
	b = append(b, pngChunk("IDAT", []byte{0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})...)
	return append(b, pngChunk("IEND", nil)...)
}

// byteOrder reads and appends in one byte order.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// tiffPage is one page of a hand-built TIFF file: 8 or 16-bit greyscale,
// one strip.
type tiffPage struct {
	width, height int
	bits          int // 8 or 16
	photometric   int // 0 WhiteIsZero, 1 BlackIsZero
	compression   int // 1 none, 32773 PackBits
	strip         []byte
}

// buildTIFF writes a classic TIFF file holding pages, each strip followed
// by its IFD, and returns it with the offsets of the IFDs.
func buildTIFF(order byteOrder, pages ...tiffPage) ([]byte, []int) {
	b := []byte("II*\x00")
	if order == binary.BigEndian {
		b = []byte("MM\x00*")
	}
	b = order.AppendUint32(b, 0) // first IFD, patched below
	link := 4                    // where the pointer to the next IFD goes
	var ifds []int
	for _, p := range pages {
		stripAt := len(b)
		b = append(b, p.strip...)
		if len(b)%2 == 1 {
			b = append(b, 0)
		}
		order.PutUint32(b[link:], uint32(len(b)))
		ifds = append(ifds, len(b))
		type entry struct{ tag, typ, value int }
		entries := []entry{
			{256, 4, p.width}, {257, 4, p.height}, {258, 3, p.bits}, {259, 3, p.compression},
			{262, 3, p.photometric}, {273, 4, stripAt}, {277, 3, 1}, {278, 4, p.height},
			{279, 4, len(p.strip)},
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

// greyStrip returns the samples of a w x h greyscale image as a TIFF strip
// of the given bit depth and byte order; value(x, y) gives each sample.
func greyStrip(order byteOrder, w, h, bits int, value func(x, y int) int) []byte {
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

// packBits compresses data with PackBits, using runs for repeats of three
// or more bytes and literals otherwise.
func packBits(data []byte) []byte {
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

// webpTwoColour returns a lossless WebP (VP8L) file of a w x h image whose
// pixels are black where black(x, y) and white elsewhere: every channel
// has a two-symbol prefix code (0 and 255, one bit a symbol), alpha a
// one-symbol code of 255 (no bits).
func webpTwoColour(w, h int, black func(x, y int) bool) []byte {
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
