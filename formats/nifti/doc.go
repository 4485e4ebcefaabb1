// Package nifti reads NIfTI-1 and NIfTI-2 volumes and writes label volumes.
// It reads single .nii or .nii.gz files and .hdr/.img pairs, every integer
// and float sample type, 4D as frames, and writes label volumes with a
// reference volume's geometry.
package nifti
