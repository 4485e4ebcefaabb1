// Package nrrd reads and writes NRRD volumes (teem's "nearly raw raster
// data"): ReadFile reads an attached-header .nrrd or a detached .nhdr
// with its data files (all scalar types; raw, gzip, bzip2, ascii and hex
// encodings; line and byte skips) as an imagegraph.Volume whose Header is
// the parsed *Header; WriteLabels writes label volumes with a reference
// volume's geometry (gzip encoding, compressed on all cores,
// little-endian).
//
// Sizes are checked against the file before samples are allocated.
// Errors are one line: "formats: PATH: nrrd: ...".
package nrrd
