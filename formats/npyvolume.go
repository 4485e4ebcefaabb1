package formats

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// npyProbe probes a .npy file: a 2D array is an image, a 3D one a volume,
// their axes as npy.ReadFile takes them.
func npyProbe(path string) (Config, error) {
	dims, kind, fortran, err := npy.ProbeFile(path)
	if err != nil {
		return Config{}, err
	}
	shape := slices.Clone(dims)
	if !fortran {
		slices.Reverse(shape)
	}
	switch len(shape) {
	case 2:
		return newConfig("npy", shape[0], shape[1], 1, 1, kind), nil
	case 3:
		return newConfig("npy", shape[0], shape[1], shape[2], 1, kind), nil
	}
	return Config{}, &UnsupportedError{Path: path, Format: "npy",
		Err: fmt.Errorf("array of %d dimensions: want 2 (an image) or 3 (a volume)", len(dims))}
}

// npyKind calls a 2D array an image, others volumes.
func npyKind(path string) (Kind, error) {
	dims, _, _, err := npy.ProbeFile(path)
	switch {
	case err != nil:
		return 0, err
	case len(dims) == 2:
		return KindImage, nil
	}
	return KindVolume, nil
}

// npyRead reads a .npy array as a volume.
func npyRead(path string) (*imagegraph.Volume, error) {
	r, err := npy.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return imagegraph.NewVolume(r, "npy"), nil
}

// npyMap maps a .npy array's samples as a volume.
func npyMap(path string) (*imagegraph.Volume, func(), error) {
	r, release, err := npy.MapFile(path)
	if err != nil {
		return nil, nil, err
	}
	return imagegraph.NewVolume(r, "npy"), release, nil
}

// npyOpen opens a 3D .npy array as a stream of planes.
func npyOpen(path string) (*raw.Stream, *imagegraph.Volume, error) {
	s, err := npy.OpenStream(path)
	if err != nil {
		return nil, nil, err
	}
	return s, streamVolume(s, "npy"), nil
}

// rawOpen opens raw data as a stream of planes.
func rawOpen(path string, o *RawOptions) (*raw.Stream, *imagegraph.Volume, error) {
	s, err := raw.OpenStream(path, o.Shape, o.DType, o.BigEndian)
	if err != nil {
		return nil, nil, err
	}
	return s, streamVolume(s, "raw"), nil
}

// rawProbe probes raw data: its shape and type are the options'.
func rawProbe(path string, o *RawOptions) (Config, error) {
	s, err := raw.OpenStream(path, o.Shape, o.DType, o.BigEndian)
	if err != nil {
		return Config{}, err
	}
	defer s.Close()
	return newConfig("raw", s.Width, s.Height, s.Depth, 1, s.Kind), nil
}

// streamVolume is the reference volume of a stream's samples: one frame
// without samples, no geometry.
func streamVolume(s *raw.Stream, format string) *imagegraph.Volume {
	frame := &imagegraph.Raster{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.Kind}
	return imagegraph.NewVolume(frame, format)
}

// writeNPYLabels writes label frames as one .npy array (see
// WriteVolumeLabels).
func writeNPYLabels(path string, ref *imagegraph.Volume, labels [][]uint32, dtype string) error {
	if len(ref.Frames) == 0 || len(labels) != len(ref.Frames) {
		return fmt.Errorf("npy: %d label frames for %d volume frames", len(labels), len(ref.Frames))
	}
	f := ref.Frames[0]
	if dtype == "auto" {
		dtype = "uint16"
		for _, frame := range labels {
			if parallel.Max(frame) > 65535 {
				dtype = "uint32"
				break
			}
		}
	}
	fortran := npyFortran(ref)
	shape := []int{f.Width, f.Height, f.Depth}
	if len(labels) > 1 {
		shape = append(shape, len(labels))
	}
	if !fortran {
		slices.Reverse(shape)
	}
	return npy.WriteLabelsFile(path, labels, shape, dtype, fortran)
}

// writeNPYLabelsFunc writes one frame of labels that are not in memory as
// a .npy array (see WriteVolumeLabelsFunc).
func writeNPYLabelsFunc(path string, ref *imagegraph.Volume, maxLabel uint32, dtype string, read func(dst []uint32, voxel int64) error) error {
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
	shape, fortran := NPYFrameShape(ref)
	n := int64(f.Width) * int64(f.Height) * int64(f.Depth)
	return npy.WriteLabelsFuncFile(path, n, shape, dtype, fortran, maxLabel, read)
}

// NPYFrameShape returns the shape and axis order of the .npy label array
// of one frame of ref, as [WriteVolumeLabels] writes it: (Z, Y, X) in C
// order, or (X, Y, Z) in Fortran order for NIfTI and NRRD volumes.
func NPYFrameShape(ref *imagegraph.Volume) (shape []int, fortran bool) {
	f := ref.Frames[0]
	fortran = npyFortran(ref)
	shape = []int{f.Width, f.Height, f.Depth}
	if !fortran {
		slices.Reverse(shape)
	}
	return shape, fortran
}

// npyFortran reports whether labels of ref are written in Fortran order,
// (X, Y, Z[, T]) as nibabel gives NIfTI and NRRD volumes, rather than in
// C order, (Z, Y, X) as tifffile and NumPy give the others.
func npyFortran(ref *imagegraph.Volume) bool {
	return strings.HasPrefix(ref.Format, "nifti") || ref.Format == "nrrd"
}
