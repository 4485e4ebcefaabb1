package imageio

import (
	"image"
	"image/color"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

// sourceOf returns the pixel of a w x h source image that EXIF orientation
// o shows at (x, y) of the upright image. The table is written from the
// EXIF definitions, independently of orientPix: 2 mirrors, 3 rotates by
// 180 degrees, 4 flips, 5 transposes, 6 rotates 90 degrees clockwise (the
// source's top row becomes the right column), 7 transverses, 8 rotates 90
// degrees counter-clockwise.
func sourceOf(o, w, h, x, y int) (int, int) {
	switch o {
	case 2:
		return w - 1 - x, y
	case 3:
		return w - 1 - x, h - 1 - y
	case 4:
		return x, h - 1 - y
	case 5:
		return y, x
	case 6:
		return y, h - 1 - x
	case 7:
		return w - 1 - y, h - 1 - x
	case 8:
		return w - 1 - y, x
	}
	return x, y
}

// checkBlocks checks that img is the 3x2-block pattern (grey or colour)
// turned by orientation o, within JPEG's error, at the middle of every
// block.
func checkBlocks(t *testing.T, img image.Image, o int, colour bool) {
	t.Helper()
	w, h := 3*testkit.BlockSize, 2*testkit.BlockSize
	want := image.Rect(0, 0, w, h)
	if o >= 5 {
		want = image.Rect(0, 0, h, w)
	}
	if img.Bounds() != want {
		t.Fatalf("orientation %d: bounds %v, want %v", o, img.Bounds(), want)
	}
	for by := range 2 {
		for bx := range 3 {
			// Find the upright position of the source block's middle.
			sx, sy := bx*testkit.BlockSize+testkit.BlockSize/2, by*testkit.BlockSize+testkit.BlockSize/2
			found := false
			for y := range want.Dy() {
				for x := range want.Dx() {
					if fx, fy := sourceOf(o, w, h, x, y); fx != sx || fy != sy {
						continue
					}
					found = true
					got := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
					exp := color.NRGBA{testkit.BlockGrey(bx, by), testkit.BlockGrey(bx, by), testkit.BlockGrey(bx, by), 255}
					if colour {
						c := testkit.BlockColour(bx, by)
						exp = color.NRGBA{c.R, c.G, c.B, 255}
					}
					if !testkit.Near(got, exp, 12) {
						t.Errorf("orientation %d: block (%d, %d) at (%d, %d) is %v, want %v", o, bx, by, x, y, got, exp)
					}
				}
			}
			if !found {
				t.Fatalf("orientation %d: block (%d, %d) not found", o, bx, by)
			}
		}
	}
}

func TestJPEGOrientationApplied(t *testing.T) {
	grey, colour := testkit.EncodeJPEG(t, testkit.GreyPattern()), testkit.EncodeJPEG(t, testkit.ColourPattern())
	for o := 1; o <= 8; o++ {
		for _, big := range []bool{false, true} {
			g := decodeOK[image.Image](t, testkit.WithSegment(grey, testkit.EXIFSegment(o, big)))
			if _, ok := g.(*image.Gray); !ok {
				t.Errorf("orientation %d: greyscale JPEG decoded as %T", o, g)
			}
			checkBlocks(t, g, o, false)
			checkBlocks(t, decodeOK[image.Image](t, testkit.WithSegment(colour, testkit.EXIFSegment(o, big))), o, true)
		}
	}
	// The semantic anchor for 6: the source's top-left block ends up at
	// the top right.
	img := decodeOK[*image.Gray](t, testkit.WithSegment(grey, testkit.EXIFSegment(6, false)))
	if v := img.GrayAt(2*testkit.BlockSize-4, 4).Y; !testkit.Near(color.NRGBA{v, v, v, 255}, color.NRGBA{testkit.BlockGrey(0, 0), testkit.BlockGrey(0, 0), testkit.BlockGrey(0, 0), 255}, 12) {
		t.Errorf("orientation 6: top right is %d, want the source's top-left %d", v, testkit.BlockGrey(0, 0))
	}
}

func TestJPEGOrientation(t *testing.T) {
	base := testkit.EncodeJPEG(t, testkit.GreyPattern())
	seg := testkit.EXIFSegment(6, true)
	long := testkit.EXIFSegment(0, false)
	// Orientation as LONG (type 4) with value 8, as some writers store it.
	off := 4 + 6 + 8 + 2 + 12 // marker+length, "Exif\0\0", header, count, first entry
	long[off+2], long[off+3] = 4, 0
	long[off+8], long[off+9], long[off+10], long[off+11] = 8, 0, 0, 0
	xmp := append([]byte{0xff, 0xe1, 0, 12}, "http://ns\x00"...)
	cases := []struct {
		name string
		data []byte
		want int
	}{
		{"none", base, 1},
		{"big-endian 6", testkit.WithSegment(base, seg), 6},
		{"little-endian 3", testkit.WithSegment(base, testkit.EXIFSegment(3, false)), 3},
		{"LONG 8", testkit.WithSegment(base, long), 8},
		{"after XMP and fill bytes", testkit.WithSegment(base, append(append(xmp, 0xff), seg...)), 6},
		{"zero", testkit.WithSegment(base, testkit.EXIFSegment(0, true)), 1},
		{"nine", testkit.WithSegment(base, testkit.EXIFSegment(9, true)), 1},
		{"truncated segment", testkit.WithSegment(base, seg[:20])[:30], 1},
		{"segment longer than file", append([]byte{0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff}, "Exif\x00\x00"...), 1},
		{"not JPEG", []byte("II*\x00"), 1},
		{"empty", nil, 1},
	}
	for _, c := range cases {
		if got := jpegOrientation(c.data); got != c.want {
			t.Errorf("%s: orientation %d, want %d", c.name, got, c.want)
		}
	}
}

func TestEXIFOrientationBounds(t *testing.T) {
	tiffData := testkit.EXIFSegment(5, false)[10:]
	for n := range len(tiffData) {
		got := exifOrientation(tiffData[:n])
		if got != 1 && got != 5 {
			t.Fatalf("%d bytes: orientation %d", n, got)
		}
	}
	if got := exifOrientation(tiffData); got != 5 {
		t.Errorf("orientation %d, want 5", got)
	}
	// An IFD offset far past the end.
	bad := append([]byte("MM\x00*\xff\xff\xff\xf0"), make([]byte, 16)...)
	if got := exifOrientation(bad); got != 1 {
		t.Errorf("bad offset: orientation %d, want 1", got)
	}
}

func TestOrientPixIdentityAndInverse(t *testing.T) {
	// Orientation 6 then 8 (and 5 twice, 7 twice, 3 twice) is the identity.
	src := testkit.GreyPattern()
	w, h := src.Rect.Dx(), src.Rect.Dy()
	for _, pair := range [][2]int{{6, 8}, {8, 6}, {5, 5}, {7, 7}, {3, 3}, {2, 2}, {4, 4}} {
		mid := orient(src, pair[0]).(*image.Gray)
		back := orient(mid, pair[1]).(*image.Gray)
		if back.Rect != src.Rect || string(back.Pix) != string(src.Pix) {
			t.Errorf("orientations %v do not undo each other (%dx%d)", pair, w, h)
		}
	}
	if orient(src, 1) != image.Image(src) || orient(src, 0) != image.Image(src) || orient(src, 9) != image.Image(src) {
		t.Error("orientations 0, 1 and 9 should leave the image alone")
	}
}
