package tiff

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestReadBigTIFFStacks reads BigTIFF stacks written by tifffile (strips,
// tiles, Deflate, big-endian, 8 and 16 bits) and compares every sample
// with the array tifffile wrote them from (the .npy beside each).
func TestReadBigTIFFStacks(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "bigtiff", "*.tif"))
	if err != nil || len(names) < 4 {
		t.Fatalf("BigTIFF fixtures: %v, %v", names, err)
	}
	for _, name := range names {
		v, err := ReadStackFile(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := npy.ReadFile(strings.TrimSuffix(name, ".tif") + ".npy")
		if err != nil {
			t.Fatal(err)
		}
		got := v.Frames[0]
		if got.Width != want.Width || got.Height != want.Height || got.Depth != want.Depth || got.Kind != want.Kind {
			t.Fatalf("%s: %dx%dx%d %v, want %dx%dx%d %v", name, got.Width, got.Height, got.Depth, got.Kind, want.Width, want.Height, want.Depth, want.Kind)
		}
		if !reflect.DeepEqual(got.Data, want.Data) {
			t.Errorf("%s: samples differ from the array written", name)
		}
	}
}

// TestReadBigTIFFDamaged: a BigTIFF cut short or with a block pointing
// past the end is an error naming the page, never a panic.
func TestReadBigTIFFDamaged(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "bigtiff", "u8-strips.tif"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{len(data) / 2, 200, 17} {
		if _, err := readTIFFStack(data[:cut], imagegraph.MaxVoxels); err == nil {
			t.Errorf("cut at %d bytes: read without error", cut)
		}
	}
	if _, err = readTIFFStack(data, 10); err == nil || !strings.Contains(err.Error(), "hold more than 10 voxels") {
		t.Errorf("a 10-voxel limit: %v", err)
	}
}
