// Package npy reads and writes NumPy .npy arrays. It reads 2D and 3D arrays
// of integer or float samples as rasters ([ReadFile], [MapFile], [ProbeFile]
// for the header alone), and writes label arrays of uint8, uint16, int32 or
// uint32 in C or Fortran order ([WriteLabels], [WriteLabelsOrder]).
package npy
