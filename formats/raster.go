package formats

import (
	"fmt"
	"image"
	"io"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/render"
)

// WriteRasterFile writes a uint8 or uint32 raster (a synthetic input), the
// format from the extension: .npy (C order: (H, W) or (Z, Y, X), the
// raster's type), .nii or .nii.gz (NIfTI-1, the raster's type, 1 mm
// voxels), or .png for a 2D uint8 0/1 mask (written 0/255).
func WriteRasterFile(path string, r *imagegraph.Raster) error {
	var values []uint32
	var dtype string
	switch data := r.Data.(type) {
	case []uint8:
		dtype = "uint8"
	case []uint32:
		values, dtype = data, "uint32"
	default:
		return fmt.Errorf("formats: %s: cannot write %s samples (uint8 and uint32 only)", path, r.Kind)
	}
	shape := []int{r.Height, r.Width}
	if r.Depth > 1 {
		shape = []int{r.Depth, r.Height, r.Width}
	}
	switch lower := strings.ToLower(path); {
	case hasAnySuffix(lower, ".nii", ".nii.gz"):
		if values == nil {
			values = make([]uint32, r.Len())
			for i, v := range r.Data.([]uint8) {
				values[i] = uint32(v)
			}
		}
		return nifti.WriteLabels(path, imagegraph.NewVolume(r, "npy"), [][]uint32{values}, dtype)
	case strings.HasSuffix(lower, ".npy"):
		return atomicfile.WriteFile(path, func(w io.Writer) error {
			if values != nil {
				return npy.WriteLabels(w, values, shape, dtype)
			}
			return npy.WriteBytes(w, r.Data.([]uint8), shape)
		})
	case strings.HasSuffix(lower, ".png") && values == nil && r.Depth == 1:
		return atomicfile.WriteFile(path, func(w io.Writer) error {
			img := image.NewGray(image.Rect(0, 0, r.Width, r.Height))
			for i, v := range r.Data.([]uint8) {
				img.Pix[i] = v * 255
			}
			return render.WritePNG(w, img)
		})
	}
	return fmt.Errorf("formats: %s: cannot write a %s raster as %s (want .npy, .nii, .nii.gz, or .png for 2D uint8 masks)",
		path, r.Kind, filepath.Ext(path))
}
