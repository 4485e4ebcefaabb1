// Package testimages builds the test inputs that the tests of several
// format packages share: small grey and colour patterns, their PNG, JPEG,
// GIF, BMP and TIFF encodings, hand-built TIFF files (pages, BigTIFF,
// PackBits), EXIF segments, lying PNG headers and lossless WebP files, and
// compares decoded images.
package testimages

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

// BlockSize is the side of the flat blocks of the test patterns: big
// enough that JPEG keeps the middle of each block close to its value.
const BlockSize = 16

// BlockGrey is the grey value of block (bx, by) of a 3x2-block pattern:
// all six differ by at least 40.
func BlockGrey(bx, by int) uint8 { return uint8(20 + 40*(by*3+bx)) }

// BlockColour is the colour of block (bx, by) of a 3x2-block pattern: all
// six are far apart.
func BlockColour(bx, by int) color.RGBA {
	return [6]color.RGBA{
		{230, 30, 30, 255}, {30, 200, 30, 255}, {30, 30, 230, 255},
		{230, 230, 30, 255}, {30, 220, 220, 255}, {20, 20, 20, 255},
	}[by*3+bx]
}

// GreyPattern returns a 48x32 grey image of 3x2 flat blocks (BlockGrey),
// asymmetric under every flip and rotation.
func GreyPattern() *image.Gray {
	img := image.NewGray(image.Rect(0, 0, 3*BlockSize, 2*BlockSize))
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			img.Pix[y*img.Stride+x] = BlockGrey(x/BlockSize, y/BlockSize)
		}
	}
	return img
}

// ColourPattern returns a 48x32 colour image of 3x2 flat blocks
// (BlockColour).
func ColourPattern() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 3*BlockSize, 2*BlockSize))
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			img.SetRGBA(x, y, BlockColour(x/BlockSize, y/BlockSize))
		}
	}
	return img
}

// Gray16Pattern returns a w x h 16-bit image whose values use both bytes.
func Gray16Pattern(w, h int) *image.Gray16 {
	img := image.NewGray16(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetGray16(x, y, color.Gray16{Y: uint16(1000*x + 7*y + 300)})
		}
	}
	return img
}

// EncodePNG, EncodeJPEG, EncodeGIF, EncodeBMP and EncodeTIFF encode img in
// their format, failing the test on error.
func EncodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// EncodeJPEG encodes img as JPEG (quality 95).
func EncodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// EncodeGIF encodes img as GIF.
func EncodeGIF(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// EncodeBMP encodes img as BMP.
func EncodeBMP(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bmp.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// EncodeTIFF encodes img as TIFF with the given options.
func EncodeTIFF(t testing.TB, img image.Image, opts *tiff.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tiff.Encode(&b, img, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// EXIFSegment returns a JPEG APP1 segment holding EXIF data with the given
// orientation, in big-endian ("MM") or little-endian ("II") TIFF layout,
// the orientation entry after an unrelated one.
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

// PNGHeaderOnly returns a PNG signature and an 8-bit greyscale IHDR of the
// given size, with a tiny IDAT and IEND: a header that lies about the
// amount of data.
func PNGHeaderOnly(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, PNGChunk("IHDR", ihdr)...)
	b = append(b, PNGChunk("IDAT", []byte{0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})...)
	return append(b, PNGChunk("IEND", nil)...)
}

// ByteOrder reads and appends in one byte order.
type ByteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// TIFFPage is one page of a hand-built TIFF file: 8 or 16-bit greyscale,
// one strip.
type TIFFPage struct {
	Width, Height int
	Bits          int // 8 or 16
	Photometric   int // 0 WhiteIsZero, 1 BlackIsZero
	Compression   int // 1 none, 32773 PackBits
	Strip         []byte
}

// BuildTIFF writes a classic TIFF file holding pages, each strip followed
// by its IFD, and returns it with the offsets of the IFDs.
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

// GreyStrip returns the samples of a w x h greyscale image as a TIFF strip
// of the given bit depth and byte order; value(x, y) gives each sample.
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

// PackBits compresses data with PackBits, using runs for repeats of three
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

// WebPTwoColour returns a lossless WebP (VP8L) file of a w x h image whose
// pixels are black where black(x, y) and white elsewhere: every channel
// has a two-symbol prefix code (0 and 255, one bit a symbol), alpha a
// one-symbol code of 255 (no bits).
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

// TwoByTwo is a tiny 8-bit page for hand-built TIFF files.
var TwoByTwo = TIFFPage{Width: 2, Height: 2, Bits: 8, Photometric: 1, Compression: 1, Strip: []byte{1, 2, 3, 4}}

// BigTIFF returns a BigTIFF file with n empty IFDs chained one after
// another.
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

// SameImage checks that got has want's bounds and colours.
func SameImage(t *testing.T, got, want image.Image) {
	t.Helper()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
	}
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("pixel (%d, %d) = %v, want %v", x, y, got.At(x, y), want.At(x, y))
			}
		}
	}
}

// Near reports whether every channel of a and b differs by at most tol.
func Near(a, b color.NRGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}
