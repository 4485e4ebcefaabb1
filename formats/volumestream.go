package formats

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
)

// OpenVolumeStream opens a volume to be read a few planes at a time. It
// serves labeling out of core, and opens a 3D C-order .npy, a single-file
// NIfTI (.nii, .nii.gz; one frame), NRRD (.nrrd, .nhdr; one frame, not
// ascii), or raw data when rawOpts is not nil. Beside the stream it returns
// the volume's header and geometry as a Volume whose one frame has no samples
// (Data nil), the reference for [WriteVolumeLabelsFunc].
func OpenVolumeStream(path string, rawOpts *RawOptions) (*raw.Stream, *imagegraph.Volume, error) {
	if rawOpts != nil {
		return rawOpen(path, rawOpts)
	}
	if f := lookup(path); f != nil && f.open != nil {
		return f.open(path)
	}
	return nil, nil, &UnsupportedError{Path: path, Err: errors.New("volumes are read plane by plane from .npy, .nii, .nii.gz, .nrrd, .nhdr or raw files")}
}

// VolumeVoxels returns the voxel count of one frame of a volume file. It
// counts what [ReadVolumeFile] would read from the header alone, for the
// volumes [OpenVolumeStream] opens; ok is false for others.
func VolumeVoxels(path string, rawOpts *RawOptions) (n int, ok bool) {
	s, _, err := OpenVolumeStream(path, rawOpts)
	if err != nil {
		return 0, false
	}
	defer s.Close()
	return s.Width * s.Height * s.Depth, true
}

// WriteVolumeLabelsFunc is [WriteVolumeLabels] for labels not in memory. It
// writes one frame of labels: read serves them (possibly from several
// goroutines at once, on ranges that may overlap), maxLabel is the largest.
// It writes .nii, .nii.gz and .npy (in the axis order [WriteVolumeLabels]
// uses), counting the bytes as [WriteVolumeLabels] does.
func WriteVolumeLabelsFunc(path string, ref *imagegraph.Volume, maxLabel uint32, dtype string, read func(dst []uint32, voxel int64) error) error {
	if f := lookup(path); f != nil && f.writeFunc != nil {
		return f.writeFunc(path, ref, maxLabel, dtype, read)
	}
	return &UnsupportedError{Path: path, Err: fmt.Errorf("label volumes are written out of core as .nii, .nii.gz or .npy, not %q", filepath.Ext(path))}
}

// StreamsLabels reports whether [WriteVolumeLabelsFunc] writes the label
// volume path: a .nii, .nii.gz or .npy file, in any case.
func StreamsLabels(path string) bool {
	f := lookup(path)
	return f != nil && f.writeFunc != nil
}
