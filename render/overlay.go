package render

import (
	"fmt"
	"image"
	"image/draw"
	"math"
)

// Overlay blends label colours over the image base.
//
// Pixels with label 0 show base, labeled pixels show
// alpha*LabelColor(label) + (1-alpha)*base (see [LabelColor]). labels has
// one value for each pixel of base, x fastest; alpha must lie in [0, 1].
//
// The base is shown as 8-bit colour, or grey for greyscale images: 8-bit
// grey as it is, 16-bit grey stretched linearly from its smallest to its
// largest value (16-bit data often uses a small part of the range; a
// constant image shows its high byte), other images through their colour
// model, with transparency composited over black. The result is opaque
// and has base's size, with its origin at (0, 0).
func Overlay(base image.Image, labels []uint32, alpha float64) (*image.NRGBA, error) {
	b := base.Bounds()
	if err := checkLabelSize(labels, b.Dx(), b.Dy()); err != nil {
		return nil, err
	}
	if !(alpha >= 0 && alpha <= 1) {
		return nil, fmt.Errorf("formats: overlay alpha %v is not in [0, 1]", alpha)
	}
	out := baseRGB(base)
	a := uint32(math.Round(alpha * 255))
	prev, c := uint32(0), LabelColor(0)
	for i, l := range labels {
		if l == 0 {
			continue
		}
		if l != prev {
			prev, c = l, LabelColor(l)
		}
		p := out.Pix[4*i : 4*i+3 : 4*i+3]
		p[0] = blend(c.R, p[0], a)
		p[1] = blend(c.G, p[1], a)
		p[2] = blend(c.B, p[2], a)
	}
	return out, nil
}

// blend returns (a*fg + (255-a)*bg)/255, rounded.
func blend(fg, bg uint8, a uint32) uint8 {
	return uint8((a*uint32(fg) + (255-a)*uint32(bg) + 127) / 255)
}

// baseRGB returns img as an opaque 8-bit image with its origin at (0, 0),
// as [Overlay] describes.
func baseRGB(img image.Image) *image.NRGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	switch m := img.(type) {
	case *image.Gray:
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w]
			dst := out.Pix[y*out.Stride:][:4*w]
			for x, v := range src {
				p := dst[4*x : 4*x+4 : 4*x+4]
				p[0], p[1], p[2], p[3] = v, v, v, 255
			}
		}
	case *image.Gray16:
		lo, hi := uint32(math.MaxUint16), uint32(0)
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:2*w]
			for i := 0; i < len(src); i += 2 {
				v := uint32(src[i])<<8 | uint32(src[i+1])
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		span := hi - lo
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:2*w]
			dst := out.Pix[y*out.Stride:][:4*w]
			for x := range w {
				v := src[2*x] // a constant image shows its high byte
				if span > 0 {
					v = uint8(((uint32(src[2*x])<<8 | uint32(src[2*x+1])) - lo) * 255 / span)
				}
				p := dst[4*x : 4*x+4 : 4*x+4]
				p[0], p[1], p[2], p[3] = v, v, v, 255
			}
		}
	default:
		// Drawing into RGBA composites over transparent black; with every
		// alpha then set to 255 that is compositing over opaque black.
		rgba := &image.RGBA{Pix: out.Pix, Stride: out.Stride, Rect: out.Rect}
		draw.Draw(rgba, rgba.Rect, img, b.Min, draw.Src)
		for i := 3; i < len(out.Pix); i += 4 {
			out.Pix[i] = 255
		}
	}
	return out
}
