package formats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestStreamsLabels: StreamsLabels holds exactly for the paths that
// WriteVolumeLabelsFunc writes, whatever the case of the extension.
func TestStreamsLabels(t *testing.T) {
	dir := t.TempDir()
	ref := uint8Volume(2, 2, 1, 0, 1, 1, 0)
	read := func(dst []uint32, voxel int64) error { clear(dst); return nil }
	for _, c := range []struct {
		name string
		want bool
	}{
		{"a.nii", true}, {"a.nii.gz", true}, {"a.NII.GZ", true}, {"a.npy", true}, {"a.NPY", true},
		{"a.nrrd", false}, {"a.hdr", false}, {"a.img", false}, {"a.png", false}, {"a.tif", false}, {"a", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := StreamsLabels(c.name); got != c.want {
				t.Fatalf("StreamsLabels = %v, want %v", got, c.want)
			}
			err := WriteVolumeLabelsFunc(filepath.Join(dir, c.name), ref, 1, "auto", read)
			if (err == nil) != c.want {
				t.Fatalf("WriteVolumeLabelsFunc: %v", err)
			}
			os.Remove(filepath.Join(dir, c.name))
		})
	}
}

// uint8Volume is a volume of uint8 samples, x fastest, read from a .npy.
func uint8Volume(width, height, depth int, samples ...uint8) *imagegraph.Volume {
	return imagegraph.NewVolume(&imagegraph.Raster{Width: width, Height: height, Depth: depth,
		Kind: imagegraph.Uint8, Data: imagegraph.Samples[uint8](samples)}, "npy")
}
