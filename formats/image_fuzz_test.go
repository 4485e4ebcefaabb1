package formats

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"strings"
	"testing"

	"golang.org/x/image/tiff"
)

// fuzzMaxPixels keeps decoded images small while fuzzing, so that each
// input stays cheap; everything else is as in DecodeImage.
const fuzzMaxPixels = 1 << 16

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
	jpg := encodeJPEG(t, grey)
	two, _ := buildTIFF(binary.BigEndian, twoByTwo, twoByTwo)
	packed, _ := buildTIFF(binary.LittleEndian, tiffPage{width: 6, height: 4, bits: 8, photometric: 0,
		compression: 32773, strip: packBits(grey.Pix)})
	return [][]byte{
		encodePNG(t, grey),
		encodePNG(t, gray16Pattern(3, 2)),
		encodePNG(t, rgba),
		encodePNG(t, pal),
		jpg,
		withSegment(jpg, exifSegment(6, true)),
		encodeJPEG(t, rgba),
		encodeGIF(t, pal),
		encodeBMP(t, rgba),
		encodeBMP(t, grey),
		encodeTIFF(t, grey, nil),
		encodeTIFF(t, gray16Pattern(3, 3), &tiff.Options{Compression: tiff.Deflate, Predictor: true}),
		packed,
		two,
		webpTwoColour(5, 3, func(x, y int) bool { return x == y }),
		pngHeaderOnly(40000, 40000),
		[]byte("GIF89a\x00\x00\x00\x00\x00\x00\x00;"),
	}
}

func FuzzDecodeImage(f *testing.F) {
	for _, s := range smallImageSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := decodeImage(data, "fuzz", fuzzMaxPixels)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "formats: fuzz: ") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error %q is not one line starting with \"formats: fuzz: \"", msg)
			}
			return
		}
		b := img.Bounds()
		if b.Empty() || b.Min != (image.Point{}) || b.Dx()*b.Dy() > fuzzMaxPixels {
			t.Fatalf("decoded bounds %v", b)
		}
		img.At(b.Max.X-1, b.Max.Y-1) // the last pixel is there
	})
}

func FuzzEXIFOrientation(f *testing.F) {
	jpg := encodeJPEG(f, greyPattern())
	for o := 1; o <= 8; o++ {
		f.Add(withSegment(jpg[:2], exifSegment(o, o%2 == 0)))
	}
	f.Add(exifSegment(6, true)[10:])
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

func FuzzTIFFPageCount(f *testing.F) {
	three, _ := buildTIFF(binary.LittleEndian, twoByTwo, twoByTwo, twoByTwo)
	loop, ifds := buildTIFF(binary.BigEndian, twoByTwo, twoByTwo)
	binary.BigEndian.PutUint32(loop[ifds[1]+2+9*12:], uint32(ifds[0]))
	f.Add(three)
	f.Add(loop)
	f.Add(bigTIFF(2))
	f.Add(encodeTIFF(f, greyPattern(), nil))
	f.Add([]byte("II*\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, size := range []int64{int64(len(data)), int64(len(data) / 2)} {
			n, err := TIFFPageCount(bytes.NewReader(data), size)
			if err != nil {
				if msg := err.Error(); !strings.HasPrefix(msg, "formats: tiff: ") || strings.ContainsAny(msg, "\r\n") {
					t.Fatalf("error %q is not one line starting with \"formats: tiff: \"", msg)
				}
				continue
			}
			if n < 1 || int64(n) > size/6 {
				t.Fatalf("%d pages in %d bytes", n, size)
			}
			tiffFirstValue(bytes.NewReader(data), size, tiffTagPhotometric)
		}
	})
}
