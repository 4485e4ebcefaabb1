package formats_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/slabs"
)

// FuzzOpenVolumeStream feeds arbitrary bytes to the plane-by-plane readers
// (.npy, .nii, .nii.gz, .nrrd by the first byte's choice): they must fail
// with an error or give planes of the size their header states, never
// panic; a .npy whose header opened holds all its planes (the size is
// checked against the file first). Volumes over 2^16 voxels are only
// opened.
func FuzzOpenVolumeStream(f *testing.F) {
	dir := f.TempDir()
	vol, _ := imagegraph.NewRaster(3, 2, 4, make([]uint8, 24))
	for i, ext := range []string{".npy", ".nii", ".nii.gz", ".nrrd"} {
		path := filepath.Join(dir, "seed"+ext)
		if err := formats.WriteVolumeLabels(path, imagegraph.NewVolume(vol, "raw"), [][]uint32{make([]uint32, 24)}, "uint16"); err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(byte(i), data)
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		ext := []string{".npy", ".nii", ".nii.gz", ".nrrd"}[int(which)%4]
		path := filepath.Join(t.TempDir(), "v"+ext)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, _, err := formats.OpenVolumeStream(path, nil)
		if err != nil {
			return
		}
		defer s.Close()
		if int64(s.Width)*int64(s.Height)*int64(s.Depth) > 1<<16 {
			return
		}
		plane, err := slabs.NewPlanes(s.Width, s.Height, 1, s.Kind)
		if err != nil {
			t.Fatalf("a %dx%d plane of %v: %v", s.Width, s.Height, s.Kind, err)
		}
		for z := 0; z < s.Depth; z++ {
			if err := s.ReadPlanes(plane); err != nil {
				if ext == ".npy" {
					t.Fatalf("plane %d of a .npy whose header was accepted: %v", z, err)
				}
				return // a short or corrupt compressed body: an error, no panic
			}
		}
	})
}
