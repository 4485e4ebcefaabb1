package imageio

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

// sliceGrey returns a w x h grey image whose pixel i is base + i.
func sliceGrey(w, h, base int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(base + i)
	}
	return img
}

// writeSlices writes files (name to content) into a new folder.
func writeSlices(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadSliceFolder(t *testing.T) {
	dir := writeSlices(t, map[string][]byte{
		"z02.png":      testkit.EncodePNG(t, sliceGrey(3, 2, 20)),
		"z00.PNG":      testkit.EncodePNG(t, sliceGrey(3, 2, 0)),
		"z01.png":      testkit.EncodePNG(t, sliceGrey(3, 2, 10)),
		"notes.txt":    []byte("not an image"),
		".z00.png":     []byte("hidden, e.g. macOS metadata"),
		"z03.png.orig": []byte("other extension"),
	})
	if err := os.Mkdir(filepath.Join(dir, "sub.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := ReadSliceFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Frames[0]
	want := []uint8{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25}
	if r.Width != 3 || r.Height != 2 || r.Depth != 3 || r.Kind != imagegraph.Uint8 || !slices.Equal(r.Data.([]uint8), want) {
		t.Errorf("%dx%dx%d %v %v", r.Width, r.Height, r.Depth, r.Kind, r.Data)
	}
	if v.Format != "slices" || v.Header != nil || v.Spacing != [3]float64{1, 1, 1} || v.Slope != 1 {
		t.Errorf("metadata %+v", v)
	}
}

func TestReadSliceFolderColour(t *testing.T) {
	// A colour series whose first slice happens to be grey: the whole
	// stack is packed colour.
	greyRGBA := image.NewRGBA(image.Rect(0, 0, 2, 1))
	greyRGBA.Set(0, 0, color.RGBA{7, 7, 7, 255})
	greyRGBA.Set(1, 0, color.RGBA{9, 9, 9, 255})
	colour := image.NewRGBA(image.Rect(0, 0, 2, 1))
	colour.Set(0, 0, color.RGBA{1, 2, 3, 255})
	colour.Set(1, 0, color.RGBA{4, 4, 4, 255})
	dir := writeSlices(t, map[string][]byte{"a.png": testkit.EncodePNG(t, greyRGBA), "b.png": testkit.EncodePNG(t, colour), "c.png": testkit.EncodePNG(t, greyRGBA)})
	v, err := ReadSliceFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Frames[0]
	want := []uint32{0x070707, 0x090909, 0x010203, 0x040404, 0x070707, 0x090909}
	if r.Kind != imagegraph.RGB || !slices.Equal(r.Data.([]uint32), want) {
		t.Errorf("%v %x", r.Kind, r.Data)
	}
	// All grey-valued colour slices stay grey.
	dir = writeSlices(t, map[string][]byte{"a.png": testkit.EncodePNG(t, greyRGBA), "b.png": testkit.EncodePNG(t, greyRGBA)})
	v, err = ReadSliceFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := v.Frames[0]; r.Kind != imagegraph.Uint8 || !slices.Equal(r.Data.([]uint8), []uint8{7, 9, 7, 9}) {
		t.Errorf("%v %v", r.Kind, r.Data)
	}
}

func TestReadSliceFolderErrors(t *testing.T) {
	dir := writeSlices(t, map[string][]byte{
		"a.png": testkit.EncodePNG(t, sliceGrey(3, 2, 0)),
		"b.png": testkit.EncodePNG(t, sliceGrey(3, 2, 0)),
		"c.png": testkit.EncodePNG(t, sliceGrey(2, 2, 0)),
		"d.png": testkit.EncodePNG(t, sliceGrey(4, 4, 0)),
	})
	_, err := ReadSliceFolder(dir)
	testkit.WantError(t, err, "formats: "+filepath.Join(dir, "c.png")+": slices: slice 2 is 2x2, the first is 3x2 (first slice: a.png)")
	dir = writeSlices(t, map[string][]byte{
		"a.png": testkit.EncodePNG(t, sliceGrey(2, 1, 0)),
		"b.png": testkit.EncodePNG(t, testkit.Gray16Pattern(2, 1)),
	})
	_, err = ReadSliceFolder(dir)
	testkit.WantError(t, err, filepath.Join(dir, "b.png")+": slices: slice 1 is 16-bit grey, the first is 8-bit grey")
	dir = writeSlices(t, map[string][]byte{"a.png": testkit.EncodePNG(t, sliceGrey(2, 1, 0)), "b.png": []byte("damaged")})
	_, err = ReadSliceFolder(dir)
	testkit.WantError(t, err, filepath.Join(dir, "b.png"), "unknown image format")
	dir = writeSlices(t, map[string][]byte{"readme.txt": []byte("x")})
	_, err = ReadSliceFolder(dir)
	testkit.WantError(t, err, dir+": slices: no image files")
	_, err = ReadSliceFolder(filepath.Join(dir, "absent"))
	testkit.WantError(t, err, "absent", "no such file")
}
