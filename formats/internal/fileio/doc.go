// Package fileio holds the file plumbing the format readers and writers
// share. That is read-ahead of streams ([Readahead]), decompression of graph
// files ([NewDecompressor]), read-only mapping of uncompressed samples
// ([MapSamples]), byte order of samples ([ToHost]) and packing of label
// samples ([PutLabels]).
package fileio
