// Package pdeflate compresses one stream on several goroutines, as pigz
// does: the input is cut into blocks (1 MiB by default), each block is
// deflated on its own goroutine, primed with the 32 KiB of input before it
// and ended with a sync flush (the last block with the final bit), and the
// blocks are written in order as one ordinary deflate stream inside a
// single gzip member (RFC 1952) or zlib stream (RFC 1950). Each block's
// CRC-32 or Adler-32 is computed on its goroutine and the checksums are
// combined in order (CRC32Combine, Adler32Combine), so any gzip or zlib
// decoder reads the result.
//
// Writer is an io.WriteCloser for data that arrives in pieces; WriteFunc
// compresses a stream of known length whose bytes a callback produces, so
// that producing them (converting labels to bytes, colouring pixels) runs
// on the compressing goroutines too. Both keep memory bounded: at most
// twice as many blocks as goroutines are in flight.
package pdeflate
