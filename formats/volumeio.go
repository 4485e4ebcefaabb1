package formats

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/formats/nrrd"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/formats/tiff"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
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

// ReadVolumeFile reads a volume, picking the reader from the path: a
// folder of 2D slices; .nii, .nii.gz or a .hdr/.img pair (NIfTI-1/2);
// .nrrd or .nhdr; .tif/.tiff (pages are z); .npy; or raw data when
// rawOpts is not nil.
func ReadVolumeFile(path string, rawOpts *RawOptions) (*imagegraph.Volume, error) {
	if rawOpts != nil {
		return raw.ReadFile(path, rawOpts.Shape, rawOpts.DType, rawOpts.BigEndian)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return imageio.ReadSliceFolder(path)
	}
	switch lower := strings.ToLower(path); {
	case hasAnySuffix(lower, ".nii", ".nii.gz", ".hdr", ".img", ".hdr.gz", ".img.gz"):
		return nifti.ReadFile(path)
	case hasAnySuffix(lower, ".nrrd", ".nhdr"):
		return nrrd.ReadFile(path)
	case hasAnySuffix(lower, ".tif", ".tiff"):
		return tiff.ReadStackFile(path)
	case strings.HasSuffix(lower, ".npy"):
		r, err := npy.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return imagegraph.NewVolume(r, "npy"), nil
	}
	return nil, &UnsupportedError{Path: path, Err: errors.New("unknown volume format (want .nii, .nii.gz, .hdr/.img, .nrrd, .nhdr, .tif, .npy, a folder of slices, or raw with a shape)")}
}

// ReadVolumeFileStreaming is ReadVolumeFile telling onSamples as the
// samples arrive (nifti.ReadFileStreaming) where the reader streams: a
// single-file NIfTI (.nii, .nii.gz). Other inputs are read whole and
// onSamples is not called.
func ReadVolumeFileStreaming(path string, rawOpts *RawOptions, onSamples func(v *imagegraph.Volume, done int)) (*imagegraph.Volume, error) {
	lower := strings.ToLower(path)
	if rawOpts == nil && hasAnySuffix(lower, ".nii", ".nii.gz") {
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return nifti.ReadFileStreaming(path, onSamples)
		}
	}
	return ReadVolumeFile(path, rawOpts)
}

// MapVolumeFileStreaming is ReadVolumeFileStreaming with the samples of
// .npy and raw volumes mapped from the file instead of copied where they
// can be (npy.MapFile, raw.MapFile): no fresh memory for them and no
// copy. The volume is valid until release is called; release does
// nothing for inputs that were read. A nil onSamples makes it
// ReadVolumeFile's counterpart.
func MapVolumeFileStreaming(path string, rawOpts *RawOptions, onSamples func(v *imagegraph.Volume, done int)) (v *imagegraph.Volume, release func(), err error) {
	if rawOpts != nil {
		return raw.MapFile(path, rawOpts.Shape, rawOpts.DType, rawOpts.BigEndian)
	}
	if strings.HasSuffix(strings.ToLower(path), ".npy") {
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			r, release, err := npy.MapFile(path)
			if err != nil {
				return nil, nil, err
			}
			return imagegraph.NewVolume(r, "npy"), release, nil
		}
	}
	if onSamples == nil {
		v, err = ReadVolumeFile(path, rawOpts)
	} else {
		v, err = ReadVolumeFileStreaming(path, rawOpts, onSamples)
	}
	return v, func() {}, err
}

func hasAnySuffix(s string, suffixes ...string) bool {
	return slices.ContainsFunc(suffixes, func(x string) bool { return strings.HasSuffix(s, x) })
}

// LabelVolumeExt returns the label-volume extension that keeps a source's
// family: .nii.gz for NIfTI, .nrrd for NRRD, .npy otherwise.
func LabelVolumeExt(v *imagegraph.Volume) string {
	switch {
	case strings.HasPrefix(v.Format, "nifti"):
		return ".nii.gz"
	case v.Format == "nrrd":
		return ".nrrd"
	}
	return ".npy"
}

// IsLabelVolumePath reports whether path has an extension WriteVolumeLabels
// writes.
func IsLabelVolumePath(path string) bool {
	return hasAnySuffix(strings.ToLower(path), ".nii", ".nii.gz", ".nrrd", ".npy")
}

// WriteVolumeLabels writes label frames (one slice per frame, x fastest)
// with ref's geometry, the format from the extension: .nii/.nii.gz
// (NIfTI), .nrrd, or .npy — axes (X, Y, Z[, T]) in Fortran order for NIfTI
// and NRRD sources, as nibabel gives them, else (Z, Y, X) or (T, Z, Y, X)
// in C order, as tifffile and NumPy give them; the bytes are the same.
// dtype is uint16, uint32, int32 (npy only) or auto (uint16 when every
// label fits). The bytes written (before compression) are counted on the
// meter watching path (fileprogress.ForFile), if any.
func WriteVolumeLabels(path string, ref *imagegraph.Volume, labels [][]uint32, dtype string) error {
	lower := strings.ToLower(path)
	switch {
	case hasAnySuffix(lower, ".nii", ".nii.gz"):
		return nifti.WriteLabels(path, ref, labels, dtype)
	case strings.HasSuffix(lower, ".nrrd"):
		return nrrd.WriteLabels(path, ref, labels, dtype)
	case strings.HasSuffix(lower, ".npy"):
		m := fileprogress.ForFile(path)
		return atomicfile.WriteFile(path, func(w io.Writer) error {
			return writeVolumeNPY(w, ref, labels, dtype, m)
		})
	}
	return &UnsupportedError{Path: path, Err: fmt.Errorf("unknown label volume extension %q (want .nii, .nii.gz, .nrrd or .npy)", filepath.Ext(path))}
}

// writeVolumeNPY writes the frames as one .npy array, counting the bytes
// on m (which may be nil).
func writeVolumeNPY(w io.Writer, ref *imagegraph.Volume, labels [][]uint32, dtype string, m *fileprogress.Meter) error {
	if len(ref.Frames) == 0 || len(labels) != len(ref.Frames) {
		return fmt.Errorf("npy: %d label frames for %d volume frames", len(labels), len(ref.Frames))
	}
	f := ref.Frames[0]
	all := labels[0]
	if len(labels) > 1 {
		all = slices.Concat(labels...)
	}
	if dtype == "auto" {
		dtype = "uint16"
		if slices.Max(all) > 65535 {
			dtype = "uint32"
		}
	}
	fortran := strings.HasPrefix(ref.Format, "nifti") || ref.Format == "nrrd"
	shape := []int{f.Width, f.Height, f.Depth}
	if len(labels) > 1 {
		shape = append(shape, len(labels))
	}
	if !fortran {
		slices.Reverse(shape)
	}
	m.Expect(npyFileSize(int64(len(all)), dtype), fileprogress.Bytes)
	return npy.WriteLabelsOrder(fileprogress.Writer(w, m), all, shape, dtype, fortran)
}

// npyFileSize is about the size of a .npy file of n samples of dtype (a
// label type: uint16, or 4 bytes): the samples and a typical header.
func npyFileSize(n int64, dtype string) int64 {
	const header = 128
	if dtype == "uint16" {
		return header + 2*n
	}
	return header + 4*n
}
