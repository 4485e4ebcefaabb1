package render

import (
	"encoding/binary"
	"fmt"
	"github.com/klauspost/compress/zlib"
	"hash/crc32"
	"io"
)

// WriteColorLabelsPNG writes labels (width*height, x fastest) as an 8-bit
// RGB PNG in LabelColor's colours, row by row: unlike ColorLabels plus
// WritePNG it never holds the whole colour image, so memory stays at the
// labels themselves.
func WriteColorLabelsPNG(w io.Writer, labels []uint32, width, height int) error {
	if width < 1 || height < 1 || len(labels) != width*height {
		return fmt.Errorf("formats: png: %d labels for a %dx%d image", len(labels), width, height)
	}
	return writeStreamPNG(w, width, height, 8, 2, 3, func(y int, row []byte) {
		for x, l := range labels[y*width : (y+1)*width] {
			c := LabelColor(l)
			row[3*x], row[3*x+1], row[3*x+2] = c.R, c.G, c.B
		}
	})
}

// writeStreamPNG writes a PNG of the given bit depth and colour type (0
// grey, 2 RGB), bytesPerPixel wide, filling one row at a time through
// fill and compressing it at once with no filter: memory stays at one row.
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
	cw := &chunkWriter{w: w}
	z, err := zlib.NewWriterLevel(cw, zlib.BestSpeed)
	if err != nil {
		return fmt.Errorf("formats: png: %w", err)
	}
	row := make([]byte, 1+bytesPerPixel*width) // filter byte 0 (none), then pixels
	for y := range height {
		fill(y, row[1:])
		if _, err := z.Write(row); err != nil {
			return fmt.Errorf("formats: png: %w", err)
		}
	}
	if err := z.Close(); err != nil {
		return fmt.Errorf("formats: png: %w", err)
	}
	if err := cw.flush(); err != nil {
		return err
	}
	return writeChunk(w, "IEND", nil)
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
