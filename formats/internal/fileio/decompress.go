package fileio

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// Compression is a compression method of the streams graph files come in. The
// methods are .gz, .xz, .zst and .bz2, chosen by the file name's last
// extension or by a stream's first bytes.
type Compression int

const (
	// Uncompressed is an uncompressed stream.
	Uncompressed Compression = iota
	// Gzip is gzip (RFC 1952), every member of a multi-member file.
	Gzip
	// Zstd is Zstandard, every frame.
	Zstd
	// XZ is the .xz container with LZMA2, every stream.
	XZ
	// Bzip2 is bzip2, every stream.
	Bzip2
)

// CompressedExtensions lists the file extensions that name a compression
// method. It serves messages and documentation.
const CompressedExtensions = ".gz, .xz, .zst, .bz2"

// String returns the method's name: "none", "gzip", "zstd", "xz" or
// "bzip2".
func (m Compression) String() string {
	switch m {
	case Uncompressed:
		return "none"
	case Gzip:
		return "gzip"
	case Zstd:
		return "zstd"
	case XZ:
		return "xz"
	case Bzip2:
		return "bzip2"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// CompressionFromName returns the method that name's last extension gives.
// The extensions are .gz, .xz, .zst and .bz2, case ignored; it also returns
// name without that extension, or [Uncompressed] and name itself.
func CompressionFromName(name string) (m Compression, inner string) {
	ext := filepath.Ext(name)
	switch strings.ToLower(ext) {
	case ".gz":
		m = Gzip
	case ".xz":
		m = XZ
	case ".zst":
		m = Zstd
	case ".bz2":
		m = Bzip2
	default:
		return Uncompressed, name
	}
	return m, name[:len(name)-len(ext)]
}

// SniffBytes is how many leading bytes [SniffCompression] needs to tell every
// method.
const SniffBytes = 10

// SniffCompression returns the method whose magic bytes head starts with, or
// [Uncompressed]. head should hold the stream's first [SniffBytes] bytes
// (fewer when the stream is shorter). bzip2 is recognized only with its block
// or end-of-stream magic after the "BZh" level header, so text starting with
// "BZh" is not taken for it.
func SniffCompression(head []byte) Compression {
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b, 8}):
		return Gzip
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return Zstd
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return XZ
	case len(head) >= 10 && bytes.HasPrefix(head, []byte("BZh")) && '1' <= head[3] && head[3] <= '9' &&
		(bytes.Equal(head[4:10], []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) ||
			bytes.Equal(head[4:10], []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90})):
		return Bzip2
	}
	return Uncompressed
}

// maxZstdWindow bounds the window a Zstandard frame may ask for, so that
// a small hostile file cannot make the decoder reserve much memory. The
// zstd tool's own default limit is 128 MiB (--long=27); 1 GiB also
// allows --long=30 files.
const maxZstdWindow = 1 << 30

// NewDecompressor returns a reader of the decompressed bytes of r. r holds a
// stream compressed with m ([Uncompressed] returns r as is). Decoding runs on
// the goroutine that reads the returned reader. It reads the stream's header
// and fails when r does not hold m data. The reader's errors name the method
// ("gzip stream: unexpected EOF"); [io.EOF] comes only after a complete
// stream. Close releases the decoder but does not close r, of which it may
// have read ahead.
func NewDecompressor(r io.Reader, m Compression) (io.ReadCloser, error) {
	if m == Uncompressed {
		return io.NopCloser(r), nil
	}
	// The decoders read in small pieces (xz byte by byte); give them a
	// buffer unless r has one.
	if _, ok := r.(io.ByteReader); !ok {
		r = bufio.NewReaderSize(r, 64<<10)
	}
	var dec io.Reader
	var closeDec func()
	switch m {
	case Gzip:
		z, err := gzip.NewReader(r)
		if err != nil {
			return nil, decompressHeaderError(m, err)
		}
		dec, closeDec = z, func() { z.Close() }
	case Zstd:
		z, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, decompressHeaderError(m, err)
		}
		dec, closeDec = z, z.Close
	case XZ:
		z, err := xz.NewReader(r)
		if err != nil {
			return nil, decompressHeaderError(m, err)
		}
		dec = z
	case Bzip2:
		dec = bzip2.NewReader(r)
	default:
		return nil, fmt.Errorf("decompress: unknown method %v", m)
	}
	return &decompressor{r: dec, m: m, close: closeDec}, nil
}

// headerError reports a stream whose header does not open.
func decompressHeaderError(m Compression, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("not %s data: truncated header", m)
	}
	return fmt.Errorf("not %s data: %w", m, err)
}

// reader names the method in the decoder's errors.
type decompressor struct {
	r     io.Reader
	m     Compression
	close func()
	err   error
}

// Read reads decompressed bytes.
func (z *decompressor) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	n, err := z.r.Read(p)
	switch {
	case err == nil || err == io.EOF:
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("%s stream: truncated: %w", z.m, err)
	default:
		err = fmt.Errorf("%s stream: %w", z.m, err)
	}
	if err != nil {
		z.err = err
	}
	return n, err
}

// Close releases the decoder; it always returns nil.
func (z *decompressor) Close() error {
	if z.close != nil {
		z.close()
		z.close = nil
	}
	z.err = errors.New("decompress: read after close")
	return nil
}
