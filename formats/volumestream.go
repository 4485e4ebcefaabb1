package formats

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/formats/nrrd"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// OpenVolumeStream opens a volume to be read a few planes at a time (for
// labeling out of core): a 3D C-order .npy, a single-file NIfTI (.nii,
// .nii.gz; one frame), NRRD (.nrrd, .nhdr; one frame, not ascii), or raw
// data when rawOpts is not nil. Beside the
// stream it returns the volume's header and geometry as a Volume whose
// one frame has no samples (Data nil), the reference for
// WriteVolumeLabelsFunc.
func OpenVolumeStream(path string, rawOpts *RawOptions) (*raw.Stream, *imagegraph.Volume, error) {
	lower := strings.ToLower(path)
	var s *raw.Stream
	var err error
	var format string
	switch {
	case rawOpts != nil:
		s, err = raw.OpenStream(path, rawOpts.Shape, rawOpts.DType, rawOpts.BigEndian)
		format = "raw"
	case hasAnySuffix(lower, ".nii", ".nii.gz"):
		return nifti.OpenStream(path)
	case hasAnySuffix(lower, ".nrrd", ".nhdr"):
		return nrrd.OpenStream(path)
	case strings.HasSuffix(lower, ".npy"):
		s, err = npy.OpenStream(path)
		format = "npy"
	default:
		return nil, nil, &UnsupportedError{Path: path, Err: errors.New("volumes are read plane by plane from .npy, .nii, .nii.gz, .nrrd, .nhdr or raw files")}
	}
	if err != nil {
		return nil, nil, err
	}
	frame := &imagegraph.Raster{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.Kind}
	return s, imagegraph.NewVolume(frame, format), nil
}

// WriteVolumeLabelsFunc is WriteVolumeLabels for one frame of labels that
// are not in memory: read serves them (possibly from several goroutines
// at once, on ranges that may overlap), maxLabel is the largest. It writes .nii,
// .nii.gz and .npy (in the axis order WriteVolumeLabels uses), counting
// the bytes as WriteVolumeLabels does.
func WriteVolumeLabelsFunc(path string, ref *imagegraph.Volume, maxLabel uint32, dtype string, read func(dst []uint32, voxel int64) error) error {
	lower := strings.ToLower(path)
	switch {
	case hasAnySuffix(lower, ".nii", ".nii.gz"):
		return nifti.WriteLabelsFunc(path, ref, maxLabel, dtype, read)
	case strings.HasSuffix(lower, ".npy"):
		if ref == nil || len(ref.Frames) != 1 || ref.Frames[0] == nil {
			return &UnsupportedError{Path: path, Format: "npy", Err: fmt.Errorf("%d frames: one is written out of core", len(ref.Frames))}
		}
		f := ref.Frames[0]
		if dtype == "auto" {
			dtype = "uint16"
			if maxLabel > 65535 {
				dtype = "uint32"
			}
		}
		fortran := strings.HasPrefix(ref.Format, "nifti") || ref.Format == "nrrd"
		shape := []int{f.Width, f.Height, f.Depth}
		if !fortran {
			slices.Reverse(shape)
		}
		n := int64(f.Width) * int64(f.Height) * int64(f.Depth)
		m := fileprogress.ForFile(path)
		m.Expect(npyFileSize(n, dtype), fileprogress.Bytes)
		return atomicfile.WriteFile(path, func(w io.Writer) error {
			return npy.WriteLabelsFunc(fileprogress.Writer(w, m), n, shape, dtype, fortran, maxLabel, read)
		})
	}
	return &UnsupportedError{Path: path, Err: fmt.Errorf("label volumes are written out of core as .nii, .nii.gz or .npy, not %q", filepath.Ext(path))}
}
