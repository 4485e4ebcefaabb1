package imageio

import (
	"image"
	"image/draw"
)

// orient returns img turned upright by EXIF orientation o (1..8; others
// leave img as it is). Greyscale stays *image.Gray; anything else becomes
// *image.RGBA.
func orient(img image.Image, o int) image.Image {
	if o < 2 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	size := image.Rect(0, 0, w, h)
	if o >= 5 {
		size = image.Rect(0, 0, h, w)
	}
	if g, ok := img.(*image.Gray); ok {
		dst := image.NewGray(size)
		orientPix(dst.Pix, dst.Stride, g.Pix[g.PixOffset(b.Min.X, b.Min.Y):], g.Stride, w, h, 1, o)
		return dst
	}
	src := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(src, src.Rect, img, b.Min, draw.Src)
	dst := image.NewRGBA(size)
	orientPix(dst.Pix, dst.Stride, src.Pix, src.Stride, w, h, 4, o)
	return dst
}

// orientPix copies a w x h image of bpp bytes a pixel from src to dst,
// transformed by EXIF orientation o: 2 mirrors horizontally, 3 rotates by
// 180 degrees, 4 mirrors vertically, 5 transposes, 6 rotates 90 degrees
// clockwise, 7 transverses and 8 rotates 90 degrees counter-clockwise.
// dst is h x w for orientations 5..8.
func orientPix(dst []byte, dstStride int, src []byte, srcStride, w, h, bpp, o int) {
	// Source pixel (x, y) goes to dst offset base + x*stepX + y*stepY.
	var base, stepX, stepY int
	switch o {
	case 2:
		base, stepX, stepY = (w-1)*bpp, -bpp, dstStride
	case 3:
		base, stepX, stepY = (h-1)*dstStride+(w-1)*bpp, -bpp, -dstStride
	case 4:
		base, stepX, stepY = (h-1)*dstStride, bpp, -dstStride
	case 5:
		base, stepX, stepY = 0, dstStride, bpp
	case 6:
		base, stepX, stepY = (h-1)*bpp, dstStride, -bpp
	case 7:
		base, stepX, stepY = (w-1)*dstStride+(h-1)*bpp, -dstStride, -bpp
	case 8:
		base, stepX, stepY = (w-1)*dstStride, -dstStride, bpp
	default:
		base, stepX, stepY = 0, bpp, dstStride
	}
	for y := range h {
		row := src[y*srcStride : y*srcStride+w*bpp]
		d := base + y*stepY
		for x := 0; x < len(row); x += bpp {
			copy(dst[d:d+bpp], row[x:x+bpp])
			d += stepX
		}
	}
}
