package formats

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/parallel"
)

// WriteRasterFile writes a uint8 or uint32 raster, such as a synthetic input.
// The format comes from the extension: .npy (C order: (H, W) or (Z, Y, X),
// the raster's type), .nii or .nii.gz (NIfTI-1, the raster's type, 1 mm
// voxels), or .png for a 2D uint8 0/1 mask (written 0/255). The bytes written
// to a .npy or NIfTI file (before compression) are counted on the meter
// watching path ([fileprogress.ForFile]), if any.
func WriteRasterFile(path string, r *imagegraph.Raster) error {
	var values []uint32
	var dtype string
	bytes, _ := r.Data.(imagegraph.Samples[uint8])
	switch data := r.Data.(type) {
	case imagegraph.Samples[uint8]:
		dtype = "uint8"
	case imagegraph.Samples[uint32]:
		values, dtype = data, "uint32"
	default:
		return &UnsupportedError{Path: path, Err: fmt.Errorf("cannot write %s samples (uint8 and uint32 only)", r.Kind)}
	}
	shape := []int{r.Height, r.Width}
	if r.Depth > 1 {
		shape = []int{r.Depth, r.Height, r.Width}
	}
	name := ""
	f := lookup(path)
	if f != nil {
		name = f.name
	}
	switch {
	case name == "nifti" && f.writeFunc != nil: // .nii, .nii.gz
		vol := imagegraph.NewVolume(r, "npy")
		if values != nil {
			return f.write(path, vol, [][]uint32{values}, dtype)
		}
		// uint8 samples are served to the writer as it asks, not widened
		// to uint32 in memory first.
		return f.writeFunc(path, vol, uint32(maxByte(bytes)), dtype, func(dst []uint32, voxel int64) error {
			for i, v := range bytes[voxel : voxel+int64(len(dst))] {
				dst[i] = uint32(v)
			}
			return nil
		})
	case name == "npy":
		m := fileprogress.ForFile(path)
		m.Expect(int64(r.Len())*int64(r.Kind.Size()), fileprogress.Bytes)
		return atomicfile.WriteFile(path, func(w io.Writer) error {
			w = fileprogress.Writer(w, m)
			if values != nil {
				return npy.WriteLabels(w, values, shape, dtype)
			}
			return npy.WriteBytes(w, bytes, shape)
		})
	case name == "png" && values == nil && r.Depth == 1:
		return atomicfile.WriteFile(path, func(w io.Writer) error {
			img := image.NewGray(image.Rect(0, 0, r.Width, r.Height))
			for i, v := range bytes {
				img.Pix[i] = v * 255
			}
			enc := png.Encoder{CompressionLevel: png.BestSpeed}
			if err := enc.Encode(w, img); err != nil {
				return fmt.Errorf("formats: %w", err)
			}
			return nil
		})
	}
	return &UnsupportedError{Path: path, Err: fmt.Errorf("cannot write a %s raster as %s (want .npy, .nii, .nii.gz, or .png for 2D uint8 masks)",
		r.Kind, filepath.Ext(path))}
}

// maxByte returns the largest of s (0 when it is empty), on all cores.
func maxByte(s []uint8) uint8 {
	threads := parallel.ClampThreads(runtime.GOMAXPROCS(0), len(s)/(1<<20))
	most := make([]uint8, threads)
	parallel.RangesIndexed(len(s), threads, func(t, lo, hi int) {
		for _, v := range s[lo:hi] {
			most[t] = max(most[t], v)
		}
	})
	return slices.Max(append(most, 0))
}
