// Package filemap maps the samples of an uncompressed file into memory,
// read-only, instead of copying them into a fresh buffer.
//
// A file that was just written or read is in the page cache: mapping it
// costs no new memory, while reading it costs a buffer of its size whose
// every page the kernel must supply (and, on a virtual machine that hands
// free pages back to its host, the host too) on first write. The readers
// of .npy and raw files map their samples through Samples when they are
// stored as the raster keeps them (one byte, or the machine's byte order
// at an offset aligned to their size) and otherwise read them as before.
//
// The mapping is private and read-only: the file is never changed
// through it, and a write through the samples faults. A file changed by
// another process while it is mapped shows the change, and one truncated
// under the mapping makes reads past its new end fault (SIGBUS), as with
// any mapped file.
package filemap
