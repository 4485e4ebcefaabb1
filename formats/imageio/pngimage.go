package imageio

import "image"

// target is the image being decoded and how unfiltered rows reach it.
type pngTarget struct {
	img image.Image
	// bpp is the filter's bytes per pixel; rowBytes the bytes of a row
	// after its filter byte.
	bpp, rowBytes int
	// direct is the image's pixel buffer when a row's bytes are the
	// image's pixel bytes (stride rowBytes); rows are then unfiltered
	// straight into it. Otherwise convert stores a row.
	direct  []byte
	convert func(y int, row []byte)
	// paletted is the image when it is *image.Paletted; maxIndex is the
	// largest index seen so far, to extend its palette as image/png does.
	paletted *image.Paletted
	maxIndex int
}

// newTarget allocates the image image/png returns for h (non-interlaced)
// and the row handling for it.
func newPNGTarget(h *pngHeader) *pngTarget {
	w, ht := h.width, h.height
	r := image.Rect(0, 0, w, ht)
	bits := bitsPerPixel(h.cb)
	t := &pngTarget{bpp: (bits + 7) / 8, rowBytes: (bits*w + 7) / 8, maxIndex: -1}
	switch h.cb {
	case cbG1, cbG2, cbG4, cbG8:
		if h.useTransparent {
			m := image.NewNRGBA(r)
			t.img, t.convert = m, greyToNRGBA(m, h.depth, h.transparent[1])
		} else {
			m := image.NewGray(r)
			t.img = m
			if h.depth == 8 {
				t.direct = m.Pix
			} else {
				t.convert = unpackGrey(m, h.depth)
			}
		}
	case cbGA8:
		m := image.NewNRGBA(r)
		t.img, t.convert = m, greyAlphaToNRGBA(m)
	case cbTC8:
		if h.useTransparent {
			m := image.NewNRGBA(r)
			t.img, t.convert = m, rgbToNRGBA(m, h.transparent)
		} else {
			m := image.NewRGBA(r)
			t.img, t.convert = m, rgbToRGBA(m)
		}
	case cbP1, cbP2, cbP4, cbP8:
		m := image.NewPaletted(r, h.palette)
		t.img, t.paletted = m, m
		if h.depth == 8 {
			t.direct = m.Pix
		} else {
			t.convert = t.unpackIndices(h.depth)
		}
	case cbTCA8:
		m := image.NewNRGBA(r)
		t.img, t.direct = m, m.Pix
	case cbG16:
		if h.useTransparent {
			m := image.NewNRGBA64(r)
			t.img, t.convert = m, grey16ToNRGBA64(m, uint16(h.transparent[0])<<8|uint16(h.transparent[1]))
		} else {
			m := image.NewGray16(r)
			t.img, t.direct = m, m.Pix
		}
	case cbGA16:
		m := image.NewNRGBA64(r)
		t.img, t.convert = m, greyAlpha16ToNRGBA64(m)
	case cbTC16:
		if h.useTransparent {
			m := image.NewNRGBA64(r)
			t.img, t.convert = m, rgb16ToNRGBA64(m, h.transparent)
		} else {
			m := image.NewRGBA64(r)
			t.img, t.convert = m, rgb16ToRGBA64(m)
		}
	case cbTCA16:
		m := image.NewNRGBA64(r)
		t.img, t.direct = m, m.Pix
	}
	return t
}

// bitsPerPixel returns the bits a pixel of colour combination cb takes.
func bitsPerPixel(cb int) int {
	switch cb {
	case cbG1, cbP1:
		return 1
	case cbG2, cbP2:
		return 2
	case cbG4, cbP4:
		return 4
	case cbG8, cbP8:
		return 8
	case cbGA8, cbG16:
		return 16
	case cbTC8:
		return 24
	case cbTCA8, cbGA16:
		return 32
	case cbTC16:
		return 48
	}
	return 64 // cbTCA16
}

// finish completes the image after its last row: a palette grows to
// cover the largest index used, as image/png grows it.
func (t *pngTarget) finish() image.Image {
	if p := t.paletted; p != nil && t.maxIndex >= len(p.Palette) {
		p.Palette = p.Palette[:t.maxIndex+1]
	}
	return t.img
}

// noteIndices records the largest palette index of a row of 8-bit
// indices, unless the palette already has all 256 entries.
func (t *pngTarget) noteIndices(row []byte) {
	if t.paletted == nil || len(t.paletted.Palette) == 256 {
		return
	}
	m := t.maxIndex
	for _, v := range row {
		m = max(m, int(v))
	}
	t.maxIndex = m
}
