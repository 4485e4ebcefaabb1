// Package npy reads and writes NumPy .npy arrays: 2D and 3D arrays of
// integer or float samples as rasters (Read, ReadFile, or MapFile, which
// maps the samples from the file where it can; FileDims tells an
// image from a volume by the header alone), and label arrays of uint8,
// uint16, int32 or uint32 in C or Fortran order (WriteLabels,
// WriteLabelsOrder; WriteBytes for uint8 samples).
//
// Headers are checked against the input's size before samples are
// allocated. Errors of Read start with "npy: "; ReadFile adds the path
// ("formats: PATH: npy: ...").
package npy
