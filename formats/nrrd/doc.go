// Package nrrd reads NRRD volumes and writes label volumes. It reads attached
// .nrrd and detached .nhdr headers, every scalar type, and raw, gzip, bzip2,
// ascii and hex encodings, and writes label volumes with a reference volume's
// geometry.
package nrrd
