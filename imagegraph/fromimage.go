package imagegraph

import (
	"image"
	"image/color"
)

// FromImage converts a decoded image into a raster without losing
// precision: 8-bit grey stays uint8 (sharing the image's pixels when their
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
		for y := range h {
			row := m.Pix[y*m.Stride:]
			for x := range w {
				data[y*w+x] = uint16(row[2*x])<<8 | uint16(row[2*x+1])
			}
		}
		return NewRaster(w, h, 1, data)
	case *image.NRGBA:
		return fromRGB8(w, h, func(x, y int) (r, g, bl uint8) {
			p := m.Pix[y*m.Stride+4*x:]
			return p[0], p[1], p[2]
		})
	case *image.RGBA:
		return fromRGB8(w, h, func(x, y int) (r, g, bl uint8) {
			p := m.Pix[y*m.Stride+4*x:]
			return p[0], p[1], p[2]
		})
	case *image.NRGBA64, *image.RGBA64:
		return fromRGB16(img)
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

// fromRGB16 converts 16-bit colour: uint16 grey when R=G=B everywhere,
// else packed colour of the high bytes.
func fromRGB16(img image.Image) (*Raster, error) {
	b := img.Bounds()
	at := func(x, y int) (r, g, bl uint16) {
		c := color.NRGBA64Model.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA64)
		return c.R, c.G, c.B
	}
	return fromRGB(b.Dx(), b.Dy(), at, func(r, g, bl uint16) uint32 {
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
