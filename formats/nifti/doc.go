// Package nifti reads and writes NIfTI-1 and NIfTI-2 volumes.
//
// Read and ReadFile take single files (.nii, plain or gzipped) and
// .hdr/.img pairs, little- or big-endian, with every integer and float
// sample type, scaling (scl_slope, scl_inter), extensions and 4D data (a
// frame per time point), and return an imagegraph.Volume whose Header is
// the parsed *Header (affines as nibabel gives them: Header.Affine).
// WriteLabels writes label volumes with a reference volume's geometry,
// gzip-compressed on all cores for .nii.gz.
//
// Headers are checked before samples are allocated. Errors of Read start
// with "nifti: "; ReadFile and WriteLabels add the path
// ("formats: PATH: nifti: ...").
package nifti
