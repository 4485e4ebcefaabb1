package nrrd

import (
	"bufio"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/klauspost/compress/gzip"
)

// nrrdPart is one source of NRRD data: the header's own file (attached
// data after the header) or one detached data file.
type nrrdPart struct {
	// name is the data file's name as the header gives it, "" for
	// attached data.
	name string
	// open opens the file; close may be nil.
	open func() (r io.ReaderAt, size int64, close func() error, err error)
	// start is where the part's data begins: after the header for attached
	// data, 0 for data files.
	start int64
}

// nrrdStream reads the decoded bytes of a NRRD's data parts one after the
// other: raw bytes, decompressed gzip or bzip2 data, decoded hex, or for
// ascii encoding the text itself (parts separated by a newline). Each part
// has its line and byte skips applied and, for binary encodings, must
// yield exactly partBytes bytes: one that ends early is an error naming
// it, and compressed parts are read to their end so that their checksums
// are verified.
type nrrdStream struct {
	h     *Header
	parts []nrrdPart
	// partBytes is the number of decoded bytes each part holds, -1 for
	// ascii (read to the end).
	partBytes int64
	next      int

	// The part being read: its decoded bytes, its file's close function,
	// the bytes still due and those delivered, and a description for
	// messages.
	cur    io.Reader
	closer func() error
	left   int64
	got    int64
	what   string
	// sep is set when a newline is due between two ascii parts.
	sep bool
}

// Read delivers the parts' decoded bytes in order; see nrrdStream.
func (s *nrrdStream) Read(p []byte) (int, error) {
	for empty := 0; ; {
		if s.sep && len(p) > 0 {
			s.sep = false
			p[0] = '\n'
			return 1, nil
		}
		if s.cur == nil {
			if s.next == len(s.parts) {
				return 0, io.EOF
			}
			if err := s.openPart(); err != nil {
				return 0, err
			}
		}
		if s.left == 0 {
			if err := s.endPart(); err != nil {
				return 0, err
			}
			continue
		}
		q := p
		if s.left > 0 && int64(len(q)) > s.left {
			q = q[:s.left]
		}
		n, err := s.cur.Read(q)
		s.got += int64(n)
		if s.left > 0 {
			s.left -= int64(n)
		}
		switch {
		case n > 0 || (err == nil && len(q) == 0):
			return n, nil
		case err == nil:
			if empty++; empty > 100 {
				return 0, io.ErrNoProgress
			}
			continue
		case err == io.EOF && s.left < 0:
			if err := s.endPart(); err != nil {
				return 0, err
			}
			s.sep = s.next < len(s.parts)
			continue
		}
		return 0, s.dataError(err)
	}
}

// openPart opens the next part and positions its decoded stream at the
// data: line skip, then byte skip (in the decompressed data for gzip and
// bzip2, from the end of the file for "byte skip: -1").
func (s *nrrdStream) openPart() error {
	p := s.parts[s.next]
	s.next++
	s.what = s.h.Encoding + " data"
	if p.name != "" {
		s.what = fmt.Sprintf("data file %s: %s", nrrdQuote(p.name), s.what)
	}
	ra, size, closer, err := p.open()
	if err != nil {
		return err
	}
	s.closer, s.got, s.left = closer, 0, s.partBytes
	br := bufio.NewReaderSize(io.NewSectionReader(ra, p.start, size-p.start), 64<<10)
	pos := p.start
	for i := range s.h.LineSkip {
		n, err := nrrdSkipLine(br)
		pos += n
		if err != nil {
			return fmt.Errorf("nrrd: %s: \"line skip: %d\" but the data holds only %d lines", s.what, s.h.LineSkip, i)
		}
	}
	switch s.h.Encoding {
	case "raw":
		// No overflow matters: when pos+ByteSkip wraps, have is negative.
		have, off := size-pos-s.h.ByteSkip, pos+s.h.ByteSkip
		if s.h.ByteSkip == -1 {
			have, off = size-pos, size-s.partBytes
		}
		if have < s.partBytes {
			return fmt.Errorf("nrrd: %s holds %d bytes, the sizes need %d (truncated file?)", s.what, max(have, 0), s.partBytes)
		}
		s.cur = io.NewSectionReader(ra, off, s.partBytes)
		return nil
	case "gzip":
		z, err := gzip.NewReader(br)
		if err != nil {
			return s.dataError(err)
		}
		z.Multistream(false)
		s.cur = &nrrdGzipReader{z: z, br: br}
	case "bzip2":
		s.cur = bzip2.NewReader(br)
	case "hex":
		s.cur = &nrrdHexReader{br: br}
	default:
		s.cur = br
	}
	if s.h.Encoding == "hex" || s.h.Encoding == "ascii" {
		if _, err := br.Discard(int(min(s.h.ByteSkip, 1<<62))); err != nil {
			return fmt.Errorf("nrrd: %s: \"byte skip: %d\" skips past the end of the file", s.what, s.h.ByteSkip)
		}
		return nil
	}
	if n, err := io.CopyN(io.Discard, s.cur, s.h.ByteSkip); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return fmt.Errorf("nrrd: %s: \"byte skip: %d\" skips past the end of the data (%d bytes)", s.what, s.h.ByteSkip, n)
		}
		return s.dataError(err)
	}
	if g, ok := s.cur.(*nrrdGzipReader); ok && s.partBytes >= nrrdReadAheadMin {
		s.cur = &nrrdAheadReader{
			Readahead: fileio.NewReadahead(io.LimitReader(nrrdDataFirst{g}, s.partBytes), nrrdReadAheadBlock, nrrdReadAheadBlocks),
			gz:        g,
		}
	}
	return nil
}

// A gzip part of at least nrrdReadAheadMin bytes is decompressed on a
// second goroutine, into a ring of nrrdReadAheadBlocks buffers of
// nrrdReadAheadBlock bytes, while the samples are converted.
const (
	nrrdReadAheadMin    = 4 << 20
	nrrdReadAheadBlock  = 256 << 10
	nrrdReadAheadBlocks = 8
)

// nrrdDataFirst passes on a read's bytes without its error, as
// nrrdStream.Read does: the error (or the next gzip member) comes with the
// next read. Reading ahead through it keeps Read's view of the stream.
type nrrdDataFirst struct{ r io.Reader }

// Read reads from r, dropping the error of a read that returned bytes.
func (d nrrdDataFirst) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if n > 0 {
		err = nil
	}
	return n, err
}

// nrrdAheadReader is a gzip part's data read ahead on another goroutine:
// the same bytes and errors as gz, and never more than the part's bytes,
// so that once it is closed endPart can read gz's member on to its end.
type nrrdAheadReader struct {
	*fileio.Readahead
	gz *nrrdGzipReader
}

// endPart finishes the current part: compressed data is read to the end
// of its stream, verifying its checksum, and must hold nothing more (bytes
// after the stream are ignored, as teem does); then the file is closed.
func (s *nrrdStream) endPart() error {
	var rest io.Reader
	switch c := s.cur.(type) {
	case *nrrdAheadReader:
		c.Close()
		rest = c.gz.z // the current member only
	case *nrrdGzipReader:
		rest = c.z // the current member only
	case nil:
	default:
		if s.h.Encoding == "bzip2" {
			rest = c
		}
	}
	if rest != nil {
		var b [1]byte
		n, err := io.ReadFull(rest, b[:])
		switch {
		case n > 0:
			s.close()
			return fmt.Errorf("nrrd: %s holds more than the %d bytes the sizes give", s.what, s.partBytes)
		case err == io.EOF, err != nil && strings.Contains(err.Error(), "continuation file"):
		case err == io.ErrUnexpectedEOF:
			s.close()
			return fmt.Errorf("nrrd: %s: the end of the compressed stream is missing (truncated file?)", s.what)
		default:
			s.close()
			return s.dataError(err)
		}
	}
	return s.close()
}

// nrrdGzipReader reads gzip data member after member, as long as the
// stream delivers; endPart reads its current member to verify it.
type nrrdGzipReader struct {
	z  *gzip.Reader
	br *bufio.Reader
}

// Read reads decompressed data, going on to the next gzip member. It moves on
// when one member ends.
func (g *nrrdGzipReader) Read(p []byte) (int, error) {
	n, err := g.z.Read(p)
	if err == io.EOF && n == 0 {
		if err := g.z.Reset(g.br); err != nil {
			return 0, err
		}
		g.z.Multistream(false)
		return g.z.Read(p)
	}
	return n, err
}

// close closes the current part's file, if any.
func (s *nrrdStream) close() error {
	if c, ok := s.cur.(*nrrdAheadReader); ok {
		c.Close()
	}
	s.cur = nil
	if s.closer == nil {
		return nil
	}
	err := s.closer()
	s.closer = nil
	if err != nil {
		return fmt.Errorf("nrrd: %s: %w", s.what, err)
	}
	return nil
}

// finish ends the last part once all samples are read.
func (s *nrrdStream) finish() error {
	if s.cur != nil && s.left == 0 {
		return s.endPart()
	}
	return s.close()
}

// dataError describes an error reading the current part's data.
func (s *nrrdStream) dataError(err error) error {
	var se bzip2.StructuralError
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		if s.partBytes < 0 {
			return fmt.Errorf("nrrd: %s ends unexpectedly (truncated file?)", s.what)
		}
		return fmt.Errorf("nrrd: %s ends after %d of %d bytes (truncated file?)", s.what, s.got, s.partBytes)
	case errors.Is(err, gzip.ErrChecksum):
		return fmt.Errorf("nrrd: %s: checksum mismatch (damaged file)", s.what)
	case errors.Is(err, gzip.ErrHeader):
		return fmt.Errorf("nrrd: %s: not gzip data (invalid header)", s.what)
	case errors.As(err, &se):
		return fmt.Errorf("nrrd: %s: damaged (%s)", s.what, string(se))
	case strings.HasPrefix(err.Error(), "nrrd: "):
		return err
	}
	return fmt.Errorf("nrrd: %s: %s", s.what, fileio.OneLine(err.Error()))
}

// nrrdSkipLine consumes one line (through its '\n') and returns the bytes
// it took.
func nrrdSkipLine(br *bufio.Reader) (int64, error) {
	var n int64
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if err == nil {
			return n, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return n, err
		}
	}
}
