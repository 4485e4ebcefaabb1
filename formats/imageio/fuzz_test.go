package imageio

import (
	"encoding/binary"
	"image"
	"image/color"
	"strings"
	"testing"

	"golang.org/x/image/tiff"

	"github.com/cclabel/cclabel/internal/testkit"
)

// smallImageSeeds returns small valid files of every supported format,
// and some damaged ones, for the fuzzers' corpora.
func smallImageSeeds(t testing.TB) [][]byte {
	grey := image.NewGray(image.Rect(0, 0, 6, 4))
	for i := range grey.Pix {
		grey.Pix[i] = uint8(i * 9)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, 5, 3))
	for i := range rgba.Pix {
		rgba.Pix[i] = uint8(i * 17)
	}
	pal := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White})
	pal.Pix[5] = 1
	jpg := testkit.EncodeJPEG(t, grey)
	two, _ := testkit.BuildTIFF(binary.BigEndian, testkit.TwoByTwo, testkit.TwoByTwo)
	packed, _ := testkit.BuildTIFF(binary.LittleEndian, testkit.TIFFPage{Width: 6, Height: 4, Bits: 8, Photometric: 0,
		Compression: 32773, Strip: testkit.PackBits(grey.Pix)})
	return [][]byte{
		testkit.EncodePNG(t, grey),
		testkit.EncodePNG(t, testkit.Gray16Pattern(3, 2)),
		testkit.EncodePNG(t, rgba),
		testkit.EncodePNG(t, pal),
		jpg,
		testkit.WithSegment(jpg, testkit.EXIFSegment(6, true)),
		testkit.EncodeJPEG(t, rgba),
		testkit.EncodeGIF(t, pal),
		testkit.EncodeBMP(t, rgba),
		testkit.EncodeBMP(t, grey),
		testkit.EncodeTIFF(t, grey, nil),
		testkit.EncodeTIFF(t, testkit.Gray16Pattern(3, 3), &tiff.Options{Compression: tiff.Deflate, Predictor: true}),
		packed,
		two,
		testkit.WebPTwoColour(5, 3, func(x, y int) bool { return x == y }),
		testkit.PNGHeaderOnly(40000, 40000),
		[]byte("GIF89a\x00\x00\x00\x00\x00\x00\x00;"),
	}
}

func FuzzDecodeImage(f *testing.F) {
	for _, s := range smallImageSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := decodeImage(data, "fuzz", testkit.FuzzMaxPixels)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "formats: fuzz: ") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error %q is not one line starting with \"formats: fuzz: \"", msg)
			}
			return
		}
		b := img.Bounds()
		if b.Empty() || b.Min != (image.Point{}) || b.Dx()*b.Dy() > testkit.FuzzMaxPixels {
			t.Fatalf("decoded bounds %v", b)
		}
		img.At(b.Max.X-1, b.Max.Y-1) // the last pixel is there
	})
}

func FuzzEXIFOrientation(f *testing.F) {
	jpg := testkit.EncodeJPEG(f, testkit.GreyPattern())
	for o := 1; o <= 8; o++ {
		f.Add(testkit.WithSegment(jpg[:2], testkit.EXIFSegment(o, o%2 == 0)))
	}
	f.Add(testkit.EXIFSegment(6, true)[10:])
	f.Add([]byte("\xff\xd8\xff\xff\xff\xe1\x00\x08Exif\x00\x00"))
	f.Add([]byte("MM\x00*\xff\xff\xff\xf0"))
	small := image.NewGray(image.Rect(0, 0, 3, 2))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range []int{jpegOrientation(data), exifOrientation(data)} {
			if o < 1 || o > 8 {
				t.Fatalf("orientation %d", o)
			}
			want := image.Rect(0, 0, 3, 2)
			if o >= 5 {
				want = image.Rect(0, 0, 2, 3)
			}
			if got := orient(small, o).Bounds(); got != want {
				t.Fatalf("orientation %d: bounds %v, want %v", o, got, want)
			}
		}
	})
}
