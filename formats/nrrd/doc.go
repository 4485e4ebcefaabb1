// Package nrrd reads NRRD volumes (attached .nrrd and detached .nhdr
// headers; every scalar type; raw, gzip, bzip2, ascii and hex encodings)
// and writes label volumes with a reference volume's geometry.
package nrrd
