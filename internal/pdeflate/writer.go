package pdeflate

import (
	"errors"
	"io"
)

// Writer is an [io.WriteCloser] that compresses in parallel blocks.
//
// It writes one gzip member or zlib stream to the underlying writer. The
// input is cut into blocks (1 MiB, [DefaultBlockSize], by default), each
// block is deflated on its own goroutine, primed with the 32 KiB of input
// before it and ended with a sync flush (the last block with the final
// bit), and the blocks are written in order as one ordinary deflate stream
// inside a single gzip member (RFC 1952) or zlib stream (RFC 1950). Each
// block's CRC-32 or Adler-32 is computed on its goroutine and the
// checksums are combined in order ([CRC32Combine], [Adler32Combine]), so
// any gzip or zlib decoder reads the result. Memory stays bounded: at most
// twice as many blocks as goroutines are in flight.
//
// Write copies its input into blocks; a full block
// starts compressing at once and is written out, in order, during later
// Write calls or Close. Close must be called to finish the stream; it
// waits for every goroutine the Writer started. A Writer is not safe for
// use by several goroutines at once.
type Writer struct {
	e      *engine
	cur    *job // the block being filled, or nil
	prev   *job // the block dispatched last, whose tail is the next history
	closed bool
}

// NewWriter returns a [Writer] that writes format to w with the given
// options.
//
// It fails when an option is invalid. Nothing is written to w until the
// first block is compressed or [Writer.Close] is called.
func NewWriter(w io.Writer, format Format, opt Options) (*Writer, error) {
	e, err := newEngine(w, format, opt)
	if err != nil {
		return nil, err
	}
	return &Writer{e: e}, nil
}

// Write copies p into the stream. It returns an error (after waiting for
// the blocks in flight) once writing to the underlying writer failed.
func (z *Writer) Write(p []byte) (int, error) {
	if z.closed {
		return 0, errors.New("pdeflate: write to a closed Writer")
	}
	n := 0
	for len(p) > 0 {
		if z.cur == nil {
			if err := z.next(); err != nil {
				return n, err
			}
		}
		j := z.cur
		k := copy(j.raw[j.dict+j.n:j.dict+z.e.block], p)
		j.n += k
		n += k
		p = p[k:]
		if j.n == z.e.block {
			z.e.dispatch(j)
			z.prev, z.cur = j, nil
		}
	}
	return n, nil
}

// next starts a new block, primed with the last 32 KiB of the stream so
// far. The previous block is still in flight (at least two are allowed),
// so its bytes are still there.
func (z *Writer) next() error {
	j, err := z.e.getJob()
	if err != nil {
		return err
	}
	if z.prev != nil {
		hist := z.prev.raw[:z.prev.dict+z.prev.n]
		j.dict = copy(j.raw, hist[max(0, len(hist)-window):])
	}
	z.cur = j
	return nil
}

// Close finishes the stream and waits for all compressing goroutines.
//
// It compresses the last (possibly empty) block and writes every block out
// and then the trailer. It does not close the underlying writer. Closing
// twice returns the first Close's result.
func (z *Writer) Close() error {
	if z.closed {
		return z.e.err
	}
	z.closed = true
	if z.cur == nil {
		if err := z.next(); err != nil {
			return err
		}
	}
	z.cur.final = true
	z.e.dispatch(z.cur)
	z.prev, z.cur = nil, nil
	return z.e.finish()
}

// WriteFunc compresses n bytes that fill produces into one stream on w.
//
// It writes one gzip member or zlib stream, compressing blocks in
// parallel as [Writer] does, with memory as bounded. Producing the bytes
// (converting labels to bytes, colouring pixels) thus runs on the
// compressing goroutines too. fill(dst, off) must write the stream's
// bytes off..off+len(dst); it runs on the compressing goroutines, several
// at once, and is called once per block with the block and the (up to
// 32 KiB of) history before it, so it produces about 3% more bytes than
// the stream holds. Block starts are multiples of [Options].BlockSize and
// history starts are 32 KiB before them (or 0). It returns the first
// error writing to w.
func WriteFunc(w io.Writer, format Format, n int64, fill func(dst []byte, off int64), opt Options) error {
	if n < 0 {
		return errors.New("pdeflate: negative stream length")
	}
	e, err := newEngine(w, format, opt)
	if err != nil {
		return err
	}
	block := int64(e.block)
	blocks := max(1, (n+block-1)/block)
	for b := range blocks {
		j, err := e.getJob()
		if err != nil {
			return err
		}
		off := b * block
		j.start = max(0, off-window)
		j.dict, j.n = int(off-j.start), int(min(block, n-off))
		j.fill, j.final = fill, b == blocks-1
		e.dispatch(j)
	}
	return e.finish()
}
