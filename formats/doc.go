// Package formats reads and writes the files cclabel labels. One registry of
// formats picks each file's reader, writer and header probe ([Probe]) from
// its name, over one package per format (formats/nifti, nrrd, npy, raw,
// imageio, graphio). Volumes are read as [imagegraph.Volume] and label
// volumes written with their source's [imagegraph.Geometry]; every error is a
// [*FormatError], [*UnsupportedError] or [*FileError] whose one-line message
// starts with "formats: ".
package formats
