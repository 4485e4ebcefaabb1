package nifti

import (
	"bufio"
	"fmt"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
)

// ProbeFile returns the volume a NIfTI file's header describes, without
// samples. The file is a .nii, .nii.gz or either half of a .hdr/.img pair;
// the volume's frames have nil Data, with the volume's geometry, scaling and
// [Header]. Errors are [ReadFile]'s.
func ProbeFile(path string) (*imagegraph.Volume, error) {
	hdr, _, pair, err := niftiPairPaths(path)
	if err != nil {
		return nil, &fileio.FileError{Path: path, Err: fmt.Errorf("nifti: %w", err)}
	}
	if !pair {
		hdr = path
	}
	f, size, err := niftiOpenFile(hdr)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	in, err := niftiOpen(bufio.NewReader(f), size)
	if err != nil {
		return nil, fileio.Wrap(path, "nifti", err)
	}
	h, err := niftiReadHeader(in.r)
	if err != nil {
		return nil, fileio.Wrap(path, "nifti", err)
	}
	l, err := h.layout()
	if err != nil {
		return nil, fileio.Wrap(path, "nifti", err)
	}
	return niftiVolume(h, l, nil), nil
}
