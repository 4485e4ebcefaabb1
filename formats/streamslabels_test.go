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
	ref := imagegraph.NewVolume(&imagegraph.Raster{Width: 2, Height: 2, Depth: 1, Kind: imagegraph.Uint8,
		Data: imagegraph.Samples[uint8]{0, 1, 1, 0}}, "npy")
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
