package imageio

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
	xtiff "golang.org/x/image/tiff"
)

// tiffStackFuzzSeeds returns small TIFF files for the fuzzer: stacks of
// 8 and 16-bit pages in both byte orders, compressed single pages, colour,
// and pages that differ.
func tiffStackFuzzSeeds(t testing.TB) [][]byte {
	three, _ := testkit.BuildTIFF(binary.LittleEndian, tiffStackPage(3, 2, 0), tiffStackPage(3, 2, 10), tiffStackPage(3, 2, 20))
	big, _ := testkit.BuildTIFF(binary.BigEndian, tiffStackPage(2, 2, 0), testkit.TIFFPage{Width: 2, Height: 2, Bits: 8, Photometric: 0,
		Compression: 32773, Strip: testkit.PackBits([]byte{1, 2, 3, 4})})
	p16 := testkit.TIFFPage{Width: 2, Height: 1, Bits: 16, Photometric: 1, Compression: 1, Strip: []byte{1, 2, 3, 4}}
	deep, _ := testkit.BuildTIFF(binary.LittleEndian, p16, p16)
	mixed, _ := testkit.BuildTIFF(binary.LittleEndian, tiffStackPage(3, 2, 0), tiffStackPage(2, 2, 0))
	rgba := image.NewRGBA(image.Rect(0, 0, 3, 2))
	rgba.Set(1, 1, color.RGBA{200, 100, 50, 255})
	return [][]byte{
		three, big, deep, mixed,
		testkit.EncodeTIFF(t, testkit.GreyPattern(), &xtiff.Options{Compression: xtiff.Deflate}),
		testkit.EncodeTIFF(t, testkit.Gray16Pattern(3, 3), &xtiff.Options{Compression: xtiff.Deflate, Predictor: true}),
		testkit.EncodeTIFF(t, rgba, nil),
		testkit.BigTIFF(2),
	}
}

func FuzzReadTIFFStack(f *testing.F) {
	for _, s := range tiffStackFuzzSeeds(f) {
		f.Add(s)
	}
	for _, name := range []string{"u8-strips", "u16-be", "u8-deflate-tiled"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "bigtiff", name+".tif")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := readTIFFStack(data, testkit.FuzzMaxPixels)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "tiff: ") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error %q is not one line starting with \"tiff: \"", msg)
			}
			return
		}
		checkFuzzVolume(t, v)
		if len(v.Frames) != 1 || v.Format != "tiff" || v.Header != nil {
			t.Fatalf("%d frames, format %q", len(v.Frames), v.Format)
		}
		pages, err := TIFFPageCount(bytes.NewReader(data), int64(len(data)))
		if err != nil || pages != v.Frames[0].Depth {
			t.Fatalf("depth %d, %d pages (%v)", v.Frames[0].Depth, pages, err)
		}
	})
}

// checkFuzzVolume checks a volume the fuzzed reader accepted: frames of
// one shape and kind that validate, no scaling, and a finite geometry.
func checkFuzzVolume(t *testing.T, v *imagegraph.Volume) {
	t.Helper()
	if len(v.Frames) == 0 || v.Slope != 1 || v.Inter != 0 {
		t.Fatalf("%d frames, slope %v, inter %v", len(v.Frames), v.Slope, v.Inter)
	}
	r0 := v.Frames[0]
	for _, r := range v.Frames {
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		if r.Width != r0.Width || r.Height != r0.Height || r.Depth != r0.Depth || r.Kind != r0.Kind {
			t.Fatal("frames differ in shape or kind")
		}
	}
	testkit.CheckGeometry(t, v.Spacing, v.Affine)
}
