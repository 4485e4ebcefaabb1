package render

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/cclabel/cclabel/internal/pdeflate"
)

// WriteColorLabelsPNG writes labels as an 8-bit RGB PNG in [LabelColor]'s
// colours.
//
// labels holds width*height values, x fastest. Rows are coloured in bands
// on all cores and compressed as they are (see writeStreamPNG): unlike
// [ColorLabels] plus [WritePNG] it never holds the whole colour image.
func WriteColorLabelsPNG(w io.Writer, labels []uint32, width, height int) error {
	if width < 1 || height < 1 || len(labels) != width*height {
		return fmt.Errorf("formats: png: %d labels for a %dx%d image", len(labels), width, height)
	}
	var caches sync.Pool // of *colorCache: fill runs on several goroutines
	return writeStreamPNG(w, width, height, 8, 2, 3, func(y int, row []byte) {
		cache, _ := caches.Get().(*colorCache)
		if cache == nil {
			cache = newColorCache()
		}
		cache.row(row, labels[y*width:(y+1)*width])
		caches.Put(cache)
	})
}

// colorCache remembers the colours of recent labels (direct-mapped on
// the label's low bits): [LabelColor] costs tens of nanoseconds and label
// maps repeat few labels per row.
type colorCache struct {
	label [colorCacheSize]uint32
	rgb   [colorCacheSize][3]byte
}

const colorCacheSize = 1 << 12

// newColorCache returns an empty cache (slot 0 holds label 0, black).
func newColorCache() *colorCache {
	c := &colorCache{}
	for i := range c.label {
		c.label[i] = uint32(i) + 1 // a label of another slot: never a hit
	}
	c.label[0], c.rgb[0] = 0, [3]byte{} // label 0 is black
	return c
}

// color returns a label's colour.
func (c *colorCache) color(l uint32) [3]byte {
	k := l & (colorCacheSize - 1)
	if c.label[k] != l {
		rgb := LabelColor(l)
		c.label[k], c.rgb[k] = l, [3]byte{rgb.R, rgb.G, rgb.B}
	}
	return c.rgb[k]
}

// row writes the RGB colours of a row of labels, one colour per run of
// equal labels; long runs are filled by doubling copies.
func (c *colorCache) row(row []byte, labels []uint32) {
	for x := 0; x < len(labels); {
		l, end := labels[x], x+1
		for end < len(labels) && labels[end] == l {
			end++
		}
		rgb := c.color(l)
		run := row[3*x : 3*end]
		if len(run) <= 24 {
			for i := 0; i < len(run); i += 3 {
				run[i], run[i+1], run[i+2] = rgb[0], rgb[1], rgb[2]
			}
		} else {
			run[0], run[1], run[2] = rgb[0], rgb[1], rgb[2]
			for k := 3; k < len(run); k *= 2 {
				copy(run[k:], run[:k])
			}
		}
		x = end
	}
}

// writeStreamPNG writes a PNG of the given bit depth and colour type (0
// grey, 2 RGB), bytesPerPixel wide, with no filter. The image data is
// one zlib stream (level 1) compressed in bands of rows of about 1 MiB
// on all cores ([pdeflate.WriteFunc]): fill(y, row) writes the pixels of row
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
