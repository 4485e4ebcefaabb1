package formats_test

import (
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
)

func TestImagePixelsAndVolumeVoxels(t *testing.T) {
	dir := t.TempDir()
	img, _ := imagegraph.NewRaster(7, 5, 1, make([]uint8, 35))
	vol, _ := imagegraph.NewRaster(4, 3, 2, make([]uint8, 24))
	for _, name := range []string{"a.png", "a.npy"} {
		path := filepath.Join(dir, name)
		if err := formats.WriteRasterFile(path, img); err != nil {
			t.Fatal(err)
		}
		if n, ok := formats.ImagePixels(path); !ok || n != 35 {
			t.Errorf("%s: ImagePixels = %d, %v; want 35", name, n, ok)
		}
	}
	for _, name := range []string{"v.npy", "v.nii.gz", "v.nrrd"} {
		path := filepath.Join(dir, name)
		if err := formats.WriteVolumeLabels(path, imagegraph.NewVolume(vol, "raw"), [][]uint32{make([]uint32, 24)}, "uint16"); err != nil {
			t.Fatal(err)
		}
		if n, ok := formats.VolumeVoxels(path, nil); !ok || n != 24 {
			t.Errorf("%s: VolumeVoxels = %d, %v; want 24", name, n, ok)
		}
		if _, ok := formats.ImagePixels(path); ok && name == "v.npy" {
			t.Errorf("%s: a 3D array has image pixels", name)
		}
	}
	for _, path := range []string{"-", filepath.Join(dir, "missing.png"), filepath.Join(dir, "v.nii.gz")} {
		if _, ok := formats.ImagePixels(path); ok {
			t.Errorf("ImagePixels(%s) claims a size", path)
		}
	}
}
