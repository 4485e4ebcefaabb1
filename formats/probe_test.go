package formats

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
	"golang.org/x/image/tiff"
)

// TestProbeMatchesRead checks Probe against the readers: for every format
// the header's sizes, frames, sample kind and bytes are those of the
// volume or image read in full.
func TestProbeMatchesRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	vol := &imagegraph.Raster{Width: 4, Height: 3, Depth: 2, Kind: imagegraph.Uint8, Data: make([]uint8, 24)}
	img := &imagegraph.Raster{Width: 5, Height: 7, Depth: 1, Kind: imagegraph.Uint8, Data: make([]uint8, 35)}
	labels := [][]uint32{make([]uint32, 24), make([]uint32, 24)}
	labels[1][5] = 70000
	ref := imagegraph.NewVolume(vol, "raw")
	ref.Frames = append(ref.Frames, vol)
	var paths []string
	for _, name := range []string{"v.nii.gz", "v.nii", "v.nrrd", "v.npy"} {
		path := filepath.Join(dir, name)
		frames := labels
		if name == "v.npy" {
			frames = labels[:1]
			ref.Frames = ref.Frames[:1]
		}
		if err := WriteVolumeLabels(path, ref, frames, "auto"); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	for _, name := range []string{"i.npy", "i.png"} {
		path := filepath.Join(dir, name)
		if err := WriteRasterFile(path, img); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	var buf bytes.Buffer
	rgb := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	rgb.Set(1, 1, color.NRGBA{200, 10, 10, 255})
	if err := png.Encode(&buf, rgb); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, write("colour.png", buf.Bytes()), write("colour.image", buf.Bytes()))
	page := testkit.TIFFPage{Width: 3, Height: 2, Bits: 16, Photometric: 1, Compression: 1, Strip: make([]byte, 12)}
	stack, _ := testkit.BuildTIFF(binary.LittleEndian, page, page, page)
	paths = append(paths, write("stack.tif", stack))
	buf.Reset()
	if err := tiff.Encode(&buf, image.NewGray16(image.Rect(0, 0, 6, 4)), nil); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, write("one.tif", buf.Bytes()))
	slices := filepath.Join(dir, "slices")
	if err := os.Mkdir(slices, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.png", "b.png", "c.png"} {
		if err := WriteRasterFile(filepath.Join(slices, name), img); err != nil {
			t.Fatal(err)
		}
	}
	paths = append(paths, slices)
	for _, path := range paths {
		c, err := Probe(path, nil)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
			continue
		}
		var frames []*imagegraph.Raster
		if k, _ := KindOf(path); k == KindImage || strings.HasSuffix(path, ".image") {
			m, err := ReadImageFile(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			frames = []*imagegraph.Raster{m.Raster}
		} else {
			v, err := ReadVolumeFile(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			frames = v.Frames
		}
		f := frames[0]
		want := newConfig(c.Format, f.Width, f.Height, f.Depth, len(frames), f.Kind)
		if c != want {
			t.Errorf("%s: Probe = %+v, read %+v", filepath.Base(path), c, want)
		}
	}
	raw := write("v.raw", make([]byte, 2*24))
	c, err := Probe(raw, &RawOptions{Shape: [3]int{4, 3, 2}, DType: "int16"})
	if want := newConfig("raw", 4, 3, 2, 1, imagegraph.Int16); err != nil || c != want {
		t.Errorf("raw: Probe = %+v, %v; want %+v", c, err, want)
	}
	if _, err := Probe(filepath.Join(dir, "missing.nii"), nil); err == nil {
		t.Error("a missing file was probed")
	}
}
