package formats_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestMapMatchesRead checks that the mapping readers give the rasters
// the copying ones give, for .npy images and volumes, raw volumes and
// inputs that are not mapped (PNG, NIfTI), and the same errors.
func TestMapMatchesRead(t *testing.T) {
	dir := t.TempDir()
	img := imagegraph.Raster{Width: 7, Height: 5, Depth: 1, Kind: imagegraph.Uint8, Data: imagegraph.Samples[uint8](make([]uint8, 35))}
	vol := imagegraph.Raster{Width: 4, Height: 3, Depth: 6, Kind: imagegraph.Uint32, Data: imagegraph.Samples[uint32](make([]uint32, 72))}
	for i := range 35 {
		img.Data.(imagegraph.Samples[uint8])[i] = uint8(i % 3 % 2)
	}
	for i := range 72 {
		vol.Data.(imagegraph.Samples[uint32])[i] = uint32(i * 7919 % 5)
	}
	write := func(name string, r *imagegraph.Raster) string {
		path := filepath.Join(dir, name)
		if err := formats.WriteRasterFile(path, r); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, path := range []string{write("i.npy", &img), write("i.png", &img)} {
		mapped, release, err := formats.MapImageFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		read, err := formats.ReadImageFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*mapped.Raster, *read.Raster) {
			t.Errorf("%s: mapped image differs from the read one", path)
		}
		release()
	}
	vnpy, vnii := write("v.npy", &vol), write("v.nii", &vol)
	for _, path := range []string{vnpy, vnii} {
		mapped, release, err := formats.MapVolumeFileStreaming(path, nil, func(*imagegraph.Volume, int) {})
		if err != nil {
			t.Fatal(err)
		}
		read, err := formats.ReadVolumeFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*mapped.Frames[0], *read.Frames[0]) || mapped.Format != read.Format {
			t.Errorf("%s: mapped volume differs from the read one", path)
		}
		release()
	}
	raw := filepath.Join(dir, "v.raw")
	if err := os.WriteFile(raw, make([]byte, 72), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := &formats.RawOptions{Shape: [3]int{4, 3, 6}, DType: "uint8"}
	mapped, release, err := formats.MapVolumeFileStreaming(raw, opts, nil)
	if err != nil || mapped.Frames[0].Len() != 72 || mapped.Format != "raw" {
		t.Fatalf("raw: %v", err)
	}
	release()
	// Errors: a 3D array as an image, a volume that does not fit its file.
	_, _, merr := formats.MapImageFile(vnpy, nil)
	_, rerr := formats.ReadImageFile(vnpy, nil)
	if merr == nil || rerr == nil || merr.Error() != rerr.Error() {
		t.Errorf("3D .npy as an image: MapImageFile says %v, ReadImageFile %v", merr, rerr)
	}
	opts.Shape[2] = 7
	_, _, merr = formats.MapVolumeFileStreaming(raw, opts, nil)
	_, rerr = formats.ReadVolumeFile(raw, opts)
	if merr == nil || rerr == nil || merr.Error() != rerr.Error() {
		t.Errorf("short raw file: MapVolumeFileStreaming says %v, ReadVolumeFile %v", merr, rerr)
	}
}
