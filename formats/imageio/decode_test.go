package imageio

import (
	"bytes"
	"compress/lzw"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
	"golang.org/x/image/tiff"
)

// decodeOK decodes data and fails the test on error or when the result is
// not of the type of want.
func decodeOK[T image.Image](t *testing.T, data []byte) T {
	t.Helper()
	img, err := Decode(bytes.NewReader(data), "test")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := img.(T)
	if !ok {
		var want T
		t.Fatalf("decoded %T, want %T", img, want)
	}
	return m
}

func TestDecodePNG(t *testing.T) {
	grey := testkit.GreyPattern()
	testkit.SameImage(t, decodeOK[*image.Gray](t, testkit.EncodePNG(t, grey)), grey)
	g16 := testkit.Gray16Pattern(13, 5)
	got := decodeOK[*image.Gray16](t, testkit.EncodePNG(t, g16))
	if !bytes.Equal(got.Pix, g16.Pix) {
		t.Error("16-bit PNG samples differ")
	}
	rgba := testkit.ColourPattern()
	testkit.SameImage(t, decodeOK[*image.RGBA](t, testkit.EncodePNG(t, rgba)), rgba)
	nrgba := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	nrgba.SetNRGBA(1, 1, color.NRGBA{200, 100, 50, 128})
	testkit.SameImage(t, decodeOK[*image.NRGBA](t, testkit.EncodePNG(t, nrgba)), nrgba)
	pal := image.NewPaletted(image.Rect(0, 0, 4, 3), color.Palette{color.Black, color.White, color.RGBA{255, 0, 0, 255}})
	pal.SetColorIndex(2, 1, 2)
	gotPal := decodeOK[*image.Paletted](t, testkit.EncodePNG(t, pal))
	if !bytes.Equal(gotPal.Pix, pal.Pix) {
		t.Error("palette indices differ")
	}
}

func TestDecodeGIF(t *testing.T) {
	pal := image.NewPaletted(image.Rect(0, 0, 48, 32), nil)
	for i := range 6 {
		pal.Palette = append(pal.Palette, testkit.BlockColour(i%3, i/3))
	}
	for y := range 32 {
		for x := range 48 {
			pal.SetColorIndex(x, y, uint8(y/testkit.BlockSize*3+x/testkit.BlockSize))
		}
	}
	got := decodeOK[*image.Paletted](t, testkit.EncodeGIF(t, pal))
	testkit.SameImage(t, got, pal)
	if !bytes.Equal(got.Pix, pal.Pix) {
		t.Error("GIF palette indices differ")
	}
}

func TestDecodeGIFFrameOffScreenOrigin(t *testing.T) {
	// A 4x3 screen whose first frame covers only (1,1)-(3,2).
	b := []byte("GIF89a")
	b = append(b, 4, 0, 3, 0, 0x80, 1, 0) // global table of 2 colours, background 1
	b = append(b, 0, 0, 0, 255, 255, 255)
	b = append(b, 0x2c, 1, 0, 1, 0, 2, 0, 1, 0, 0) // frame at (1,1), 2x1
	var z bytes.Buffer
	lw := lzw.NewWriter(&z, lzw.LSB, 2)
	lw.Write([]byte{0, 0})
	lw.Close()
	b = append(b, 2, byte(z.Len()))
	b = append(b, z.Bytes()...)
	b = append(b, 0, 0x3b)
	got := decodeOK[*image.Paletted](t, b)
	if got.Rect != image.Rect(0, 0, 4, 3) {
		t.Fatalf("bounds %v, want the 4x3 screen", got.Rect)
	}
	want := []uint8{1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1}
	if !bytes.Equal(got.Pix, want) {
		t.Errorf("indices %v, want %v", got.Pix, want)
	}
}

func TestDecodeBMP(t *testing.T) {
	rgba := testkit.ColourPattern()
	testkit.SameImage(t, decodeOK[*image.RGBA](t, testkit.EncodeBMP(t, rgba)), rgba)
	grey := testkit.GreyPattern()
	testkit.SameImage(t, decodeOK[*image.Paletted](t, testkit.EncodeBMP(t, grey)), grey)
}

func TestDecodeTIFF(t *testing.T) {
	grey := testkit.GreyPattern()
	testkit.SameImage(t, decodeOK[*image.Gray](t, testkit.EncodeTIFF(t, grey, nil)), grey)
	g16 := testkit.Gray16Pattern(20, 9)
	got := decodeOK[*image.Gray16](t, testkit.EncodeTIFF(t, g16, &tiff.Options{Compression: tiff.Deflate}))
	if !bytes.Equal(got.Pix, g16.Pix) {
		t.Error("16-bit deflate TIFF samples differ")
	}
	rgba := testkit.ColourPattern()
	testkit.SameImage(t, decodeOK[*image.RGBA](t, testkit.EncodeTIFF(t, rgba, &tiff.Options{Compression: tiff.Deflate, Predictor: true})), rgba)
}

func TestDecodeTIFFHandBuilt(t *testing.T) {
	value := func(x, y int) int { return 40000 + 300*x + y }
	for _, order := range []testkit.ByteOrder{binary.BigEndian, binary.LittleEndian} {
		// 16-bit, as ImageJ writes it (big-endian).
		data, _ := testkit.BuildTIFF(order, testkit.TIFFPage{Width: 7, Height: 5, Bits: 16, Photometric: 1, Compression: 1,
			Strip: testkit.GreyStrip(order, 7, 5, 16, value)})
		got := decodeOK[*image.Gray16](t, data)
		for y := range 5 {
			for x := range 7 {
				if v := int(got.Gray16At(x, y).Y); v != value(x, y) {
					t.Fatalf("%v: (%d, %d) = %d, want %d", order, x, y, v, value(x, y))
				}
			}
		}
	}
	// PackBits, 8-bit, with runs and literals.
	raw := testkit.GreyStrip(binary.LittleEndian, 40, 6, 8, func(x, y int) int {
		if x < 20 {
			return 7
		}
		return x*y + 1
	})
	data, _ := testkit.BuildTIFF(binary.LittleEndian, testkit.TIFFPage{Width: 40, Height: 6, Bits: 8, Photometric: 1, Compression: 32773,
		Strip: testkit.PackBits(raw)})
	if got := decodeOK[*image.Gray](t, data); !bytes.Equal(got.Pix, raw) {
		t.Error("PackBits TIFF samples differ")
	}
	// WhiteIsZero keeps the stored values, 8 and 16 bits.
	data, _ = testkit.BuildTIFF(binary.LittleEndian, testkit.TIFFPage{Width: 40, Height: 6, Bits: 8, Photometric: 0, Compression: 1, Strip: raw})
	if got := decodeOK[*image.Gray](t, data); !bytes.Equal(got.Pix, raw) {
		t.Error("WhiteIsZero TIFF: stored values not kept")
	}
	strip := testkit.GreyStrip(binary.BigEndian, 7, 5, 16, value)
	data, _ = testkit.BuildTIFF(binary.BigEndian, testkit.TIFFPage{Width: 7, Height: 5, Bits: 16, Photometric: 0, Compression: 1, Strip: strip})
	if got := decodeOK[*image.Gray16](t, data); !bytes.Equal(got.Pix, strip) {
		t.Error("16-bit WhiteIsZero TIFF: stored values not kept")
	}
}

func TestDecodeWebP(t *testing.T) {
	black := func(x, y int) bool { return x < 5 && y > 0 }
	got := decodeOK[*image.NRGBA](t, testkit.WebPTwoColour(9, 4, black))
	if got.Rect != image.Rect(0, 0, 9, 4) {
		t.Fatalf("bounds %v", got.Rect)
	}
	for y := range 4 {
		for x := range 9 {
			want := color.NRGBA{255, 255, 255, 255}
			if black(x, y) {
				want = color.NRGBA{0, 0, 0, 255}
			}
			if c := got.NRGBAAt(x, y); c != want {
				t.Fatalf("(%d, %d) = %v, want %v", x, y, c, want)
			}
		}
	}
}

func TestDecodeJPEG(t *testing.T) {
	got := decodeOK[*image.Gray](t, testkit.EncodeJPEG(t, testkit.GreyPattern()))
	checkBlocks(t, got, 1, false)
	checkBlocks(t, decodeOK[*image.YCbCr](t, testkit.EncodeJPEG(t, testkit.ColourPattern())), 1, true)
}

func TestDecodeImageFile(t *testing.T) {
	dir := t.TempDir()
	// The content decides the format, not the extension.
	path := filepath.Join(dir, "really-a-png.jpg")
	if err := os.WriteFile(path, testkit.EncodePNG(t, testkit.GreyPattern()), 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := DecodeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	testkit.SameImage(t, img, testkit.GreyPattern())

	_, err = DecodeFile(filepath.Join(dir, "missing.png"))
	testkit.WantError(t, err, "missing.png", "no such file")

	bad := filepath.Join(dir, "bad.png")
	if err := os.WriteFile(bad, []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = DecodeFile(bad)
	testkit.WantError(t, err, "formats: "+bad+": unknown image format (supported: PNG, JPEG, GIF, BMP, TIFF, WebP)")
}

// failingReader fails every read.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("device gone") }

func TestDecodeImageStream(t *testing.T) {
	_, err := Decode(failingReader{}, "<stdin>")
	testkit.WantError(t, err, "formats: <stdin>: read: device gone")
	_, err = Decode(strings.NewReader("GIF89a"), "<stdin>")
	testkit.WantError(t, err, "formats: <stdin>: gif: ")
}

func TestDecodeImageErrors(t *testing.T) {
	half := func(b []byte) []byte { return b[:len(b)/2] }
	twoPages, _ := testkit.BuildTIFF(binary.LittleEndian,
		testkit.TIFFPage{Width: 2, Height: 2, Bits: 8, Photometric: 1, Compression: 1, Strip: make([]byte, 4)},
		testkit.TIFFPage{Width: 2, Height: 2, Bits: 8, Photometric: 1, Compression: 1, Strip: make([]byte, 4)})
	loop, loopIFDs := testkit.BuildTIFF(binary.LittleEndian,
		testkit.TIFFPage{Width: 2, Height: 2, Bits: 8, Photometric: 1, Compression: 1, Strip: make([]byte, 4)})
	binary.LittleEndian.PutUint32(loop[loopIFDs[0]+2+9*12:], uint32(loopIFDs[0]))
	// A TIFF whose strip offset points 2 bytes before the end of the file.
	stripPastEnd, ifds := testkit.BuildTIFF(binary.LittleEndian,
		testkit.TIFFPage{Width: 8, Height: 8, Bits: 8, Photometric: 1, Compression: 1, Strip: make([]byte, 64)})
	binary.LittleEndian.PutUint32(stripPastEnd[ifds[0]+2+5*12+8:], uint32(len(stripPastEnd)-2))
	zeroBMP := testkit.EncodeBMP(t, image.NewRGBA(image.Rect(0, 0, 0, 0)))
	zeroGIF := []byte("GIF89a\x00\x00\x00\x00\x00\x00\x00;")
	cases := []struct {
		name  string
		data  []byte
		parts []string
	}{
		{"truncated PNG", half(testkit.EncodePNG(t, testkit.GreyPattern())), []string{"formats: img: png: "}},
		{"truncated 16-bit PNG", half(testkit.EncodePNG(t, testkit.Gray16Pattern(40, 40))), []string{"formats: img: png: "}},
		{"truncated TIFF", half(testkit.EncodeTIFF(t, testkit.GreyPattern(), nil)), []string{"formats: img: tiff: "}},
		{"TIFF strip past the end", stripPastEnd, []string{"formats: img: tiff: unexpected end of data"}},
		{"truncated JPEG", half(testkit.EncodeJPEG(t, testkit.ColourPattern())), []string{"formats: img: jpeg: "}},
		{"truncated GIF", half(testkit.EncodeGIF(t, testkit.GreyPattern())), []string{"formats: img: gif: "}},
		{"truncated BMP", half(testkit.EncodeBMP(t, testkit.ColourPattern())), []string{"formats: img: bmp: "}},
		{"truncated WebP", half(testkit.WebPTwoColour(40, 30, func(x, y int) bool { return x > y })), []string{"formats: img: webp: "}},
		{"zero-size BMP", zeroBMP, []string{"formats: img: bmp: zero-size image (0x0)"}},
		{"zero-size GIF", zeroGIF, []string{"formats: img: gif: zero-size image (0x0)"}},
		{"zero-width PNG", testkit.PNGHeaderOnly(0, 10), []string{"formats: img: png: "}},
		{"too many pixels", testkit.PNGHeaderOnly(100000, 100000), []string{"100000x100000 image has more than 2147483647 pixels"}},
		{"lying header", testkit.PNGHeaderOnly(40000, 40000), []string{"png: header gives 40000x40000 pixels, more than a", "truncated or damaged"}},
		{"unknown", []byte("hello, world"), []string{"formats: img: unknown image format (supported: PNG, JPEG, GIF, BMP, TIFF, WebP)"}},
		{"empty", nil, []string{"unknown image format"}},
		{"garbage PNG", []byte("\x89PNG\r\n\x1a\n\x00\x01garbage\n\r"), []string{"formats: img: png: "}},
		{"garbage JPEG", []byte("\xff\xd8\xff\x00 garbage"), []string{"formats: img: jpeg: "}},
		{"garbage TIFF", []byte("II*\x00\x08\x00\x00\x00\xff\xff"), []string{"formats: img: tiff: "}},
		{"multi-page TIFF", twoPages, []string{"formats: img: tiff: multi-page TIFF (2 pages): label it as a volume with 'cclabel volume'"}},
		{"looping TIFF", loop, []string{"tiff: the IFD chain loops back"}},
		{"BigTIFF", []byte("II+\x00\x08\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00"), []string{"BigTIFF is not supported"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img, err := Decode(bytes.NewReader(c.data), "img")
			if err == nil {
				t.Fatalf("decoded a %v image, want an error", img.Bounds())
			}
			testkit.WantError(t, err, c.parts...)
		})
	}
}

func TestCheckImageSize(t *testing.T) {
	for _, c := range []struct {
		w, h       int
		size, per  int64
		maxPixels  int
		wantErrMsg string
	}{
		{1, 1, 1, 0, 1, ""},
		{2, 1, 1, 0, 1, "more than 1 pixels"},
		{0, 0, 1, 0, 10, "zero-size"},
		{5, -1, 1, 0, 10, "zero-size"},
		{100, 100, 1, 8, 1 << 20, "more than a 1-byte file"},
		{100, 100, 1250, 8, 1 << 20, ""},
		{100, 100, 1249, 8, 1 << 20, "more than a 1249-byte file"},
		{1 << 20, 1 << 20, 1 << 40, 0, 1<<31 - 1, "more than 2147483647 pixels"},
	} {
		err := checkImageSize(c.w, c.h, c.size, c.per, c.maxPixels)
		if got := fmt.Sprint(err); (err == nil) != (c.wantErrMsg == "") || !strings.Contains(got, c.wantErrMsg) {
			t.Errorf("checkImageSize(%d, %d, %d, %d, %d) = %v, want %q", c.w, c.h, c.size, c.per, c.maxPixels, err, c.wantErrMsg)
		}
	}
}
