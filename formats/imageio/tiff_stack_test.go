package imageio

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestTIFFStackExpected(t *testing.T) {
	cases := testkit.Cases(t, func(c testkit.Case) bool {
		f := c.File
		return strings.HasSuffix(f, ".tif") && (strings.HasPrefix(f, "volumes/") || f == "images/skimage_multipage.tif")
	})
	if len(cases) < 4 {
		t.Fatalf("only %d TIFF stack cases in expected.json", len(cases))
	}
	n := testkit.CheckExpected(t, cases, testkit.LabelVolume(ReadTIFFStackFile))
	if n == 0 {
		t.Skip("no TIFF stacks present")
	}
	t.Logf("%d TIFF stack cases checked", n)
}

// tiffStackPage returns an 8-bit page of w x h whose sample at (x, y) is
// base + x + w*y.
func tiffStackPage(w, h, base int) testkit.TIFFPage {
	strip := make([]byte, w*h)
	for i := range strip {
		strip[i] = byte(base + i)
	}
	return testkit.TIFFPage{Width: w, Height: h, Bits: 8, Photometric: 1, Compression: 1, Strip: strip}
}

func TestTIFFStackPages(t *testing.T) {
	for _, order := range []testkit.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		data, _ := testkit.BuildTIFF(order, tiffStackPage(3, 2, 0), tiffStackPage(3, 2, 10), tiffStackPage(3, 2, 20))
		v, err := readTIFFStack(data, imagegraph.MaxPixels)
		if err != nil {
			t.Fatal(err)
		}
		r := v.Frames[0]
		want := []uint8{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25}
		if r.Width != 3 || r.Height != 2 || r.Depth != 3 || r.Kind != imagegraph.Uint8 || !slices.Equal(r.Data.(imagegraph.Samples[uint8]), want) {
			t.Errorf("%v: %dx%dx%d %v %v", order, r.Width, r.Height, r.Depth, r.Kind, r.Data)
		}
		if v.Format != "tiff" || v.Header != nil || v.Spacing != [3]float64{1, 1, 1} || v.Affine != imagegraph.IdentityAffine(v.Spacing) || v.Slope != 1 {
			t.Errorf("metadata %+v", v)
		}
	}
	// 16-bit pages, one WhiteIsZero: stored values are kept.
	p16 := func(photometric, base int) testkit.TIFFPage {
		return testkit.TIFFPage{Width: 2, Height: 1, Bits: 16, Photometric: photometric, Compression: 1,
			Strip: testkit.GreyStrip(binary.BigEndian, 2, 1, 16, func(x, y int) int { return base + 1000*x })}
	}
	data, _ := testkit.BuildTIFF(binary.BigEndian, p16(1, 7), p16(0, 300))
	v, err := readTIFFStack(data, imagegraph.MaxPixels)
	if err != nil {
		t.Fatal(err)
	}
	if r := v.Frames[0]; r.Kind != imagegraph.Uint16 || !slices.Equal(r.Data.(imagegraph.Samples[uint16]), []uint16{7, 1007, 300, 1300}) {
		t.Errorf("16-bit: %v %v", r.Kind, r.Data)
	}
	// A single page, as x/image/tiff writes it, is a volume of depth 1.
	single := testkit.EncodeTIFF(t, testkit.GreyPattern(), nil)
	v, err = readTIFFStack(single, imagegraph.MaxPixels)
	if err != nil {
		t.Fatal(err)
	}
	if r := v.Frames[0]; r.Depth != 1 || r.Width != testkit.GreyPattern().Rect.Dx() || !bytes.Equal(r.Data.(imagegraph.Samples[uint8]), testkit.GreyPattern().Pix) {
		t.Errorf("single page: %dx%dx%d", r.Width, r.Height, r.Depth)
	}
}

func TestTIFFStackErrors(t *testing.T) {
	sizes, _ := testkit.BuildTIFF(binary.LittleEndian, tiffStackPage(3, 2, 0), tiffStackPage(3, 2, 0), tiffStackPage(2, 2, 0))
	p16 := testkit.TIFFPage{Width: 3, Height: 2, Bits: 16, Photometric: 1, Compression: 1, Strip: make([]byte, 12)}
	depths, _ := testkit.BuildTIFF(binary.LittleEndian, tiffStackPage(3, 2, 0), p16)
	loop, ifds := testkit.BuildTIFF(binary.LittleEndian, tiffStackPage(3, 2, 0), tiffStackPage(3, 2, 0))
	binary.LittleEndian.PutUint32(loop[ifds[1]+2+9*12:], uint32(ifds[0]))
	short, _ := testkit.BuildTIFF(binary.LittleEndian, tiffStackPage(3, 2, 0), tiffStackPage(3, 2, 0))
	binary.LittleEndian.PutUint32(short[ifds[1]+2+8*12+8:], 1000) // strip byte count of page 1
	cases := []struct {
		name      string
		data      []byte
		maxPixels int
		parts     []string
	}{
		{"sizes", sizes, imagegraph.MaxPixels, []string{"page 2 is 2x2, page 0 is 3x2"}},
		{"depths", depths, imagegraph.MaxPixels, []string{"page 1 is 16-bit grey, the first is 8-bit grey"}},
		{"loop", loop, imagegraph.MaxPixels, []string{"loops back"}},
		{"short strip", short, imagegraph.MaxPixels, []string{"tiff: page 1: invalid format"}},
		{"too many", sizes, 17, []string{"3 planes of 3x2 hold more than 17 voxels"}},
		{"empty BigTIFF pages", testkit.BigTIFF(2), imagegraph.MaxPixels, []string{"page 0: invalid format: zero-size image"}},
		{"not TIFF", []byte("\x89PNG\r\n\x1a\n...."), imagegraph.MaxPixels, []string{"no byte order mark"}},
		{"no IFD", []byte("II*\x00\x00\x00\x00\x00"), imagegraph.MaxPixels, []string{"no image"}},
	}
	for _, c := range cases {
		_, err := readTIFFStack(c.data, c.maxPixels)
		testkit.WantErrorPrefix(t, err, "tiff: ", c.parts...)
		t.Logf("%s: %v", c.name, err)
	}
	path := filepath.Join(t.TempDir(), "mixed.tif")
	if err := os.WriteFile(path, sizes, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadTIFFStackFile(path)
	testkit.WantError(t, err, "formats: "+path+": tiff: page 2 is 2x2, page 0 is 3x2")
	_, err = ReadTIFFStackFile(filepath.Join(t.TempDir(), "absent.tif"))
	testkit.WantError(t, err, "absent.tif", "no such file")
}
