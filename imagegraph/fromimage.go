package imagegraph

import (
	"encoding/binary"
	"image"
	"image/color"
	"runtime"
	"sync"
	"sync/atomic"
)

// FromImage converts a decoded image into a raster without losing
// precision. 8-bit grey stays uint8 (sharing the image's pixels when their
// layout allows), 16-bit grey stays uint16, colour whose R=G=B everywhere
// becomes grey of the source's depth, and other colour becomes packed
// 0xRRGGBB (8 bits a channel). Alpha is ignored. Paletted images give
// their palette indices (as PIL does), since paletted label maps store the
// label as the index.
func FromImage(img image.Image) (*Raster, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if _, err := PixelCount(w, h, 1); err != nil {
		return nil, err
	}
	switch m := img.(type) {
	case *image.Gray:
		if m.Stride == w {
			return NewRaster(w, h, 1, m.Pix[:w*h])
		}
		return NewRaster(w, h, 1, copyRows(m.Pix, m.Stride, w, h))
	case *image.Gray16:
		data := make([]uint16, w*h)
		splitRows(h, func(lo, hi int) {
			for y := lo; y < hi; y++ {
				row, out := m.Pix[y*m.Stride:y*m.Stride+2*w], data[y*w:(y+1)*w]
				for x := range out {
					out[x] = binary.BigEndian.Uint16(row[2*x:])
				}
			}
		})
		return NewRaster(w, h, 1, data)
	case *image.NRGBA:
		return fromRGBAPix(m.Pix, m.Stride, w, h)
	case *image.RGBA:
		return fromRGBAPix(m.Pix, m.Stride, w, h)
	case *image.NRGBA64:
		return fromRGBA64Pix(m.Pix, m.Stride, w, h, false)
	case *image.RGBA64:
		return fromRGBA64Pix(m.Pix, m.Stride, w, h, true)
	case *image.Paletted:
		// Palette indices, as PIL and tifffile give them: paletted label
		// maps (VOC-style masks) store the label as the index.
		if m.Stride == w {
			return NewRaster(w, h, 1, m.Pix[:w*h])
		}
		return NewRaster(w, h, 1, copyRows(m.Pix, m.Stride, w, h))
	}
	// Anything else (YCbCr, CMYK, Paletted, ...) through its 8-bit colours.
	return fromRGB8(w, h, func(x, y int) (r, g, bl uint8) {
		c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
		return c.R, c.G, c.B
	})
}

// copyRows copies a strided 8-bit image into a dense slice.
func copyRows(pix []uint8, stride, w, h int) []uint8 {
	out := make([]uint8, w*h)
	for y := range h {
		copy(out[y*w:(y+1)*w], pix[y*stride:])
	}
	return out
}

// fromRGB8 builds a grey raster when every pixel has R=G=B, else a packed
// colour raster.
func fromRGB8(w, h int, at func(x, y int) (r, g, b uint8)) (*Raster, error) {
	return fromRGB(w, h, at, func(r, g, b uint8) uint32 {
		return uint32(r)<<16 | uint32(g)<<8 | uint32(b)
	})
}

// fromRGBAPix converts 8-bit RGBA or NRGBA pixels (pix from the first
// pixel, rows stride bytes apart), alpha ignored: grey when R=G=B in every
// pixel, else packed 0xRRGGBB. Rows are split over the cores.
func fromRGBAPix(pix []uint8, stride, w, h int) (*Raster, error) {
	var colour atomic.Bool
	splitRows(h, func(lo, hi int) {
		for y := lo; y < hi && !colour.Load(); y++ {
			row := pix[y*stride : y*stride+4*w]
			for x := 0; x < len(row); x += 4 {
				// R, G, B are the low three bytes: equal when the XOR of the
				// word with itself shifted by one byte has two zero low bytes.
				if v := binary.LittleEndian.Uint32(row[x:]); (v^v>>8)&0xffff != 0 {
					colour.Store(true)
					return
				}
			}
		}
	})
	if !colour.Load() {
		data := make([]uint8, w*h)
		splitRows(h, func(lo, hi int) {
			for y := lo; y < hi; y++ {
				row, out := pix[y*stride:y*stride+4*w], data[y*w:(y+1)*w]
				for x := range out {
					out[x] = row[4*x]
				}
			}
		})
		return NewRaster(w, h, 1, data)
	}
	data := make([]uint32, w*h)
	splitRows(h, func(lo, hi int) {
		for y := lo; y < hi; y++ {
			row, out := pix[y*stride:y*stride+4*w], data[y*w:(y+1)*w]
			for x := range out {
				v := binary.LittleEndian.Uint32(row[4*x:])
				out[x] = (v&0xff)<<16 | v&0xff00 | (v>>16)&0xff
			}
		}
	})
	return NewRGB(w, h, 1, data)
}

// fromRGBA64Pix converts 16-bit RGBA (premultiplied: through
// color.NRGBA64Model where alpha is not opaque) or NRGBA pixels, alpha
// ignored: uint16 grey when R=G=B everywhere, else packed colour of the
// high bytes.
func fromRGBA64Pix(pix []uint8, stride, w, h int, premultiplied bool) (*Raster, error) {
	at := func(x, y int) (r, g, b uint16) {
		p := pix[y*stride+8*x : y*stride+8*x+8]
		r, g, b = binary.BigEndian.Uint16(p), binary.BigEndian.Uint16(p[2:]), binary.BigEndian.Uint16(p[4:])
		if a := binary.BigEndian.Uint16(p[6:]); premultiplied && a != 0xffff {
			c := color.NRGBA64Model.Convert(color.RGBA64{R: r, G: g, B: b, A: a}).(color.NRGBA64)
			return c.R, c.G, c.B
		}
		return r, g, b
	}
	return fromRGB(w, h, at, func(r, g, bl uint16) uint32 {
		return uint32(r>>8)<<16 | uint32(g>>8)<<8 | uint32(bl>>8)
	})
}

// fromRGB builds a grey raster of the channel type when every pixel has
// R=G=B, else a colour raster packed by pack.
func fromRGB[T uint8 | uint16](w, h int, at func(x, y int) (r, g, b T), pack func(r, g, b T) uint32) (*Raster, error) {
	grey := true
	for y := 0; y < h && grey; y++ {
		for x := range w {
			if r, g, b := at(x, y); r != g || r != b {
				grey = false
				break
			}
		}
	}
	if grey {
		data := make([]T, w*h)
		for y := range h {
			for x := range w {
				data[y*w+x], _, _ = at(x, y)
			}
		}
		return NewRaster(w, h, 1, data)
	}
	data := make([]uint32, w*h)
	for y := range h {
		for x := range w {
			data[y*w+x] = pack(at(x, y))
		}
	}
	return NewRGB(w, h, 1, data)
}

// splitRows calls body on contiguous ranges of rows [0, n), one range a
// goroutine, GOMAXPROCS of them (at most 256, at most n), and waits.
func splitRows(n int, body func(lo, hi int)) {
	threads := max(1, min(runtime.GOMAXPROCS(0), 256, n))
	if threads == 1 {
		body(0, n)
		return
	}
	var wg sync.WaitGroup
	for t := range threads {
		lo, hi := n*t/threads, n*(t+1)/threads
		wg.Go(func() { body(lo, hi) })
	}
	wg.Wait()
}
