package tiffio

import (
	"image"
	"reflect"
	"sync"
)

// assemble puts the bands' images together into one image of the type
// x/image/tiff gives for the whole page.
func assemble(imgs []image.Image, bands []band) (image.Image, error) {
	last := bands[len(bands)-1]
	w, h := imgs[0].Bounds().Dx(), last.y+last.height
	full, pix, stride := newLike(imgs[0], image.Rect(0, 0, w, h))
	if full == nil {
		return nil, errNoSplit
	}
	for i, img := range imgs {
		_, s, ok := pixOf(img)
		if !ok || s != stride || reflect.TypeOf(img) != reflect.TypeOf(full) ||
			img.Bounds() != image.Rect(0, 0, w, bands[i].height) || !samePalette(img, full) {
			return nil, errNoSplit
		}
	}
	var wg sync.WaitGroup
	for i, img := range imgs {
		wg.Go(func() {
			p, _, _ := pixOf(img)
			copy(pix[bands[i].y*stride:], p[:bands[i].height*stride])
		})
	}
	wg.Wait()
	return full, nil
}

// newLike allocates an image of img's type over r as x/image/tiff does
// (a paletted image shares img's palette), and returns its pixels and
// stride.
func newLike(img image.Image, r image.Rectangle) (image.Image, []uint8, int) {
	switch m := img.(type) {
	case *image.Gray:
		n := image.NewGray(r)
		return n, n.Pix, n.Stride
	case *image.Gray16:
		n := image.NewGray16(r)
		return n, n.Pix, n.Stride
	case *image.Paletted:
		n := image.NewPaletted(r, m.Palette)
		return n, n.Pix, n.Stride
	case *image.NRGBA:
		n := image.NewNRGBA(r)
		return n, n.Pix, n.Stride
	case *image.NRGBA64:
		n := image.NewNRGBA64(r)
		return n, n.Pix, n.Stride
	case *image.RGBA:
		n := image.NewRGBA(r)
		return n, n.Pix, n.Stride
	case *image.RGBA64:
		n := image.NewRGBA64(r)
		return n, n.Pix, n.Stride
	}
	return nil, nil, 0
}

// pixOf returns the pixels and stride of the image types x/image/tiff
// returns.
func pixOf(img image.Image) ([]uint8, int, bool) {
	switch m := img.(type) {
	case *image.Gray:
		return m.Pix, m.Stride, true
	case *image.Gray16:
		return m.Pix, m.Stride, true
	case *image.Paletted:
		return m.Pix, m.Stride, true
	case *image.NRGBA:
		return m.Pix, m.Stride, true
	case *image.NRGBA64:
		return m.Pix, m.Stride, true
	case *image.RGBA:
		return m.Pix, m.Stride, true
	case *image.RGBA64:
		return m.Pix, m.Stride, true
	}
	return nil, 0, false
}

// samePalette reports whether two images have equal palettes (true for
// images without one).
func samePalette(a, b image.Image) bool {
	pa, _ := a.(*image.Paletted)
	pb, _ := b.(*image.Paletted)
	if pa == nil || pb == nil {
		return pa == pb
	}
	return reflect.DeepEqual(pa.Palette, pb.Palette)
}
