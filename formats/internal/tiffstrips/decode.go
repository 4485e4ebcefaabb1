package tiffstrips

import (
	"bytes"
	"encoding/binary"
	"image"
	"reflect"
	"sync"

	xtiff "golang.org/x/image/tiff"
)

// minSplitPixels is the smallest page split into bands: below it the
// bands' set-up and the final copy cost more than they save.
const minSplitPixels = 1 << 20

// DecodePage decodes the page whose IFD is at offset ifd of the classic
// TIFF file data: 8 and 16-bit grey pages itself, strips or tiles in
// parallel, other pages of at least minSplitPixels pixels in bands
// decoded by golang.org/x/image/tiff in parallel, on up to threads
// goroutines (0: GOMAXPROCS).
// The image and any error are those of golang.org/x/image/tiff.Decode of
// the file with its first-IFD offset set to ifd.
func DecodePage(data []byte, ifd uint32, threads int) (image.Image, error) {
	if img, err := decodeGray(data, ifd, threads); err == nil {
		return img, nil
	}
	if img, err := decodeBands(data, ifd, threads, minSplitPixels); err == nil {
		return img, nil
	}
	return xtiff.Decode(newPageFile(data, ifd, nil))
}

// Decode decodes the first page of the TIFF file data as DecodePage does;
// it returns what golang.org/x/image/tiff.Decode returns for the file.
func Decode(data []byte, threads int) (image.Image, error) {
	if len(data) < 8 || (string(data[:4]) != "II*\x00" && string(data[:4]) != "MM\x00*") {
		return xtiff.Decode(bytes.NewReader(data))
	}
	return DecodePage(data, orderOf(data).Uint32(data[4:]), threads)
}

// orderOf returns the byte order of the TIFF header of data (little-endian
// unless it starts with "MM").
func orderOf(data []byte) binary.ByteOrder {
	if len(data) >= 2 && string(data[:2]) == "MM" {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// decodeBands cuts the page into bands and decodes them in parallel; a
// page of fewer than minPixels pixels, one it cannot cut in two or more
// bands, and a band that fails give errNoSplit.
func decodeBands(data []byte, ifdOff uint32, threads, minPixels int) (image.Image, error) {
	if len(data) < 8 || (string(data[:4]) != "II*\x00" && string(data[:4]) != "MM\x00*") || len(data) > 1<<31 {
		return nil, errNoSplit
	}
	d, err := readIFD(data, orderOf(data), ifdOff)
	if err != nil {
		return nil, err
	}
	bands, err := planBands(data, d, threads, minPixels)
	if err != nil {
		return nil, err
	}
	if len(bands) < 2 {
		return nil, errNoSplit
	}
	imgs := make([]image.Image, len(bands))
	errs := make([]error, len(bands))
	var wg sync.WaitGroup
	for i, b := range bands {
		wg.Go(func() {
			tail := d.encode(uint32(tailOffset(data)), b.replace)
			imgs[i], errs[i] = xtiff.Decode(newPageFile(data, uint32(tailOffset(data)), tail))
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, errNoSplit
		}
	}
	return assemble(imgs, bands)
}

// band is a horizontal band of a page: its first row and height, and the
// IFD values that make it a page of its own.
type band struct {
	y, height int
	replace   map[uint16][]uint32
}

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
