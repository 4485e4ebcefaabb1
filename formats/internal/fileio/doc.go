// Package fileio holds the file plumbing the format readers and writers
// share: read-ahead of streams ([Readahead]), decompression of graph
// files ([NewDecompressor]), read-only mapping of uncompressed samples
// ([MapSamples]) and packing of label samples ([PutLabels]).
//
// A mapped file costs no new memory when it is in the page cache, while
// reading it costs a buffer of its size whose every page the kernel must
// supply on first write. The mapping is private and read-only: a write
// through the samples faults, a change by another process shows, and a
// file truncated under the mapping makes reads past its new end fault
// (SIGBUS), as with any mapped file.
package fileio
