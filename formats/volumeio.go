package formats

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
)

// RawOptions describe headerless raw volume data.
type RawOptions struct {
	// Shape is X, Y, Z (x fastest).
	Shape [3]int
	// DType is a NumPy type name: uint8, int8, uint16, int16, uint32,
	// int32, uint64, int64, float32 or float64.
	DType string
	// BigEndian marks big-endian samples.
	BigEndian bool
}

// ReadVolumeFile reads a volume, picking the reader from the path. The path
// may name a folder of 2D slices; .nii, .nii.gz or a .hdr/.img pair
// (NIfTI-1/2); .nrrd or .nhdr; .tif/.tiff (pages are z); .npy; or raw data
// when rawOpts is not nil.
func ReadVolumeFile(path string, rawOpts *RawOptions) (*imagegraph.Volume, error) {
	if rawOpts != nil {
		return raw.ReadFile(path, rawOpts.Shape, rawOpts.DType, rawOpts.BigEndian)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return imageio.ReadSliceFolder(path)
	}
	if f := lookup(path); f != nil && f.read != nil {
		return f.read(path)
	}
	return nil, &UnsupportedError{Path: path, Err: errors.New("unknown volume format (want .nii, .nii.gz, .hdr/.img, .nrrd, .nhdr, .tif, .npy, a folder of slices, or raw with a shape)")}
}

// ReadVolumeFileStreaming is [ReadVolumeFile] calling onSamples as samples
// arrive. It does so ([nifti.ReadFileStreaming]) where the reader streams: a
// single-file NIfTI (.nii, .nii.gz). Other inputs are read whole and
// onSamples is not called.
func ReadVolumeFileStreaming(path string, rawOpts *RawOptions, onSamples func(v *imagegraph.Volume, done int)) (*imagegraph.Volume, error) {
	if f := lookup(path); rawOpts == nil && f != nil && f.stream != nil {
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return f.stream(path, onSamples)
		}
	}
	return ReadVolumeFile(path, rawOpts)
}

// MapVolumeFileStreaming is [ReadVolumeFileStreaming] mapping .npy and raw
// samples. The samples of .npy and raw volumes are mapped from the file
// instead of copied where they can be ([npy.MapFile], [raw.MapFile]): no
// fresh memory for them and no copy. The volume is valid until release is
// called; release does nothing for inputs that were read. A nil onSamples
// makes it [ReadVolumeFile]'s counterpart.
func MapVolumeFileStreaming(path string, rawOpts *RawOptions, onSamples func(v *imagegraph.Volume, done int)) (v *imagegraph.Volume, release func(), err error) {
	if rawOpts != nil {
		return raw.MapFile(path, rawOpts.Shape, rawOpts.DType, rawOpts.BigEndian)
	}
	if f := lookup(path); f != nil && f.mapVolume != nil {
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return f.mapVolume(path)
		}
	}
	if onSamples == nil {
		v, err = ReadVolumeFile(path, rawOpts)
	} else {
		v, err = ReadVolumeFileStreaming(path, rawOpts, onSamples)
	}
	return v, func() {}, err
}

// LabelVolumeExt returns the label-volume extension that keeps v's family. It
// is .nii.gz for NIfTI, .nrrd for NRRD, .npy otherwise.
func LabelVolumeExt(v *imagegraph.Volume) string {
	for _, f := range registry {
		if f.family != "" && strings.HasPrefix(v.Format, f.name) {
			return f.family
		}
	}
	return ".npy"
}

// IsLabelVolumePath reports whether path has an extension [WriteVolumeLabels]
// writes.
func IsLabelVolumePath(path string) bool {
	f := lookup(path)
	return f != nil && f.write != nil
}

// WriteVolumeLabels writes label frames to path with ref's geometry. There is
// one slice per frame, x fastest, and the format comes from the extension:
// .nii/.nii.gz (NIfTI), .nrrd, or .npy — axes (X, Y, Z[, T]) in Fortran order
// for NIfTI and NRRD sources, as nibabel gives them, else (Z, Y, X) or (T, Z,
// Y, X) in C order, as tifffile and NumPy give them; the bytes are the same.
// dtype is uint16, uint32, int32 (npy only) or auto (uint16 when every label
// fits). The bytes written (before compression) are counted on the meter
// watching path (fileprogress.ForFile), if any.
func WriteVolumeLabels(path string, ref *imagegraph.Volume, labels [][]uint32, dtype string) error {
	if f := lookup(path); f != nil && f.write != nil {
		return f.write(path, ref, labels, dtype)
	}
	return &UnsupportedError{Path: path, Err: fmt.Errorf("unknown label volume extension %q (want .nii, .nii.gz, .nrrd or .npy)", filepath.Ext(path))}
}
