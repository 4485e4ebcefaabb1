package testkit

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// BlockSize is the side of the flat blocks of the test patterns. It is big
// enough that JPEG keeps the middle of each block close to its value.
const BlockSize = 16

// BlockGrey is the grey value of block (bx, by) of a 3x2-block pattern. All
// six differ by at least 40.
func BlockGrey(bx, by int) uint8 { return uint8(20 + 40*(by*3+bx)) }

// BlockColour is the colour of block (bx, by) of a 3x2-block pattern. All six
// are far apart.
func BlockColour(bx, by int) color.RGBA {
	return [6]color.RGBA{
		{230, 30, 30, 255}, {30, 200, 30, 255}, {30, 30, 230, 255},
		{230, 230, 30, 255}, {30, 220, 220, 255}, {20, 20, 20, 255},
	}[by*3+bx]
}

// GreyPattern returns a 48x32 grey image of 3x2 flat blocks ([BlockGrey]). It
// is asymmetric under every flip and rotation.
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
// ([BlockColour]).
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

// EncodePNG, [EncodeJPEG], [EncodeGIF], [EncodeBMP] and [EncodeTIFF] encode
// img in their format. They fail the test on error.
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
