package formats

import (
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/formats/npy"
)

// ImagePixels returns the number of pixels of the 2D image file that
// ReadImageFile would read, from its header alone, so that a label array
// can be made ready while the pixels are decoded; ok is false when the
// header does not tell (an unknown format, stdin, a 3D array).
func ImagePixels(path string) (n int, ok bool) {
	if path == "-" {
		return 0, false
	}
	if strings.EqualFold(filepath.Ext(path), ".npy") {
		dims, _, err := npy.FileShape(path)
		if err != nil || len(dims) != 2 {
			return 0, false
		}
		return dims[0] * dims[1], dims[0] > 0 && dims[1] > 0
	}
	cfg, err := imageio.ConfigFile(path)
	if err != nil || cfg.Width < 1 || cfg.Height < 1 {
		return 0, false
	}
	return cfg.Width * cfg.Height, true
}

// VolumeVoxels returns the number of voxels of one frame of the volume
// file that ReadVolumeFile would read, from its header alone, for the
// formats OpenVolumeStream opens (.npy, NIfTI, NRRD, raw); ok is false
// for others and for volumes of several frames.
func VolumeVoxels(path string, rawOpts *RawOptions) (n int, ok bool) {
	s, _, err := OpenVolumeStream(path, rawOpts)
	if err != nil {
		return 0, false
	}
	defer s.Close()
	return s.Width * s.Height * s.Depth, true
}
