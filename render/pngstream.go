package render

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/cclabel/cclabel/internal/pdeflate"
)

// WriteColorLabelsPNG writes labels (width*height, x fastest) as an 8-bit
// RGB PNG in LabelColor's colours. Rows are coloured in bands on all
// cores and compressed as they are (see writeStreamPNG): unlike
// ColorLabels plus WritePNG it never holds the whole colour image.
func WriteColorLabelsPNG(w io.Writer, labels []uint32, width, height int) error {
	if width < 1 || height < 1 || len(labels) != width*height {
		return fmt.Errorf("formats: png: %d labels for a %dx%d image", len(labels), width, height)
	}
	return writeStreamPNG(w, width, height, 8, 2, 3, func(y int, row []byte) {
		prev, c := uint32(0), LabelColor(0)
		for x, l := range labels[y*width : (y+1)*width] {
			if l != prev {
				prev, c = l, LabelColor(l)
			}
			row[3*x], row[3*x+1], row[3*x+2] = c.R, c.G, c.B
		}
	})
}

// writeStreamPNG writes a PNG of the given bit depth and colour type (0
// grey, 2 RGB), bytesPerPixel wide, with no filter. The image data is
// one zlib stream (level 1) compressed in bands of rows of about 1 MiB
// on all cores (pdeflate.WriteFunc): fill(y, row) writes the pixels of row
// y and runs on the compressing goroutines, several at once, so memory
// stays at a few bands per core.
func writeStreamPNG(w io.Writer, width, height, depth, colorType, bytesPerPixel int, fill func(y int, row []byte)) error {
	if _, err := w.Write([]byte("\x89PNG\r\n\x1a\n")); err != nil {
		return fmt.Errorf("formats: png: %w", err)
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = byte(depth), byte(colorType) // compression, filter, interlace 0
	if err := writeChunk(w, "IHDR", ihdr[:]); err != nil {
		return err
	}
	rowLen := 1 + bytesPerPixel*width // filter byte 0 (none), then pixels
	opt := pdeflate.Options{BlockSize: rowLen * max(1, pdeflate.DefaultBlockSize/rowLen)}
	cw := &chunkWriter{w: w}
	if err := pdeflate.WriteFunc(cw, pdeflate.Zlib, int64(rowLen)*int64(height), pngRows(rowLen, fill), opt); err != nil {
		return fmt.Errorf("formats: png: %w", err)
	}
	if err := cw.flush(); err != nil {
		return err
	}
	return writeChunk(w, "IEND", nil)
}

// pngRows turns a row filler into a pdeflate fill function over the
// image data: rows of rowLen bytes, each a filter byte (0) and the pixels.
// Blocks start on row boundaries; a history may start inside a row, which
// is then filled into a scratch row and copied in part.
func pngRows(rowLen int, fill func(y int, row []byte)) func(dst []byte, off int64) {
	return func(dst []byte, off int64) {
		var scratch []byte
		for len(dst) > 0 {
			y, x := int(off/int64(rowLen)), int(off%int64(rowLen))
			if x == 0 && len(dst) >= rowLen {
				dst[0] = 0
				fill(y, dst[1:rowLen])
				dst, off = dst[rowLen:], off+int64(rowLen)
				continue
			}
			if scratch == nil {
				scratch = make([]byte, rowLen)
			}
			fill(y, scratch[1:])
			k := copy(dst, scratch[x:])
			dst, off = dst[k:], off+int64(k)
		}
	}
}

// chunkWriter gathers compressed data into IDAT chunks of up to 1 MiB.
type chunkWriter struct {
	w   io.Writer
	buf []byte
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	if len(c.buf) >= 1<<20 {
		if err := c.flush(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (c *chunkWriter) flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	err := writeChunk(c.w, "IDAT", c.buf)
	c.buf = c.buf[:0]
	return err
}

// writeChunk writes one PNG chunk with its length and CRC.
func writeChunk(w io.Writer, kind string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, b := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("formats: png: %w", err)
		}
	}
	return nil
}
