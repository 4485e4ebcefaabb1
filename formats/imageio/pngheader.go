package imageio

import (
	"encoding/binary"
	"errors"
	"image/color"
)

// Colour types of the PNG specification.
const (
	ctGrayscale      = 0
	ctTrueColor      = 2
	ctPaletted       = 3
	ctGrayscaleAlpha = 4
	ctTrueColorAlpha = 6
)

// A colour combination: colour type and bit depth, as image/png names
// them.
const (
	cbInvalid = iota
	cbG1
	cbG2
	cbG4
	cbG8
	cbGA8
	cbTC8
	cbP1
	cbP2
	cbP4
	cbP8
	cbTCA8
	cbG16
	cbGA16
	cbTC16
	cbTCA16
)

// errNotFast reports that a file takes image/png's path: it is valid but
// uses a feature this decoder leaves to image/png, or it is not valid and
// image/png gives the error.
var errPNGNotFast = errors.New("png: left to image/png")

// header is what the chunks before the pixel data say.
type pngHeader struct {
	width, height int
	depth         int
	cb            int
	interlaced    bool
	// palette has the PLTE entries (extended by a longer tRNS) and
	// capacity 256, the rest opaque black, as image/png builds it.
	palette color.Palette
	// useTransparent and transparent are a grey or truecolour tRNS chunk.
	useTransparent bool
	transparent    [6]byte
}

// combination maps an IHDR's bit depth and colour type to a cb constant.
func pngCombination(depth, colourType byte) int {
	switch depth {
	case 1, 2, 4:
		shift := int(depth >> 1) // 0, 1, 2 for depths 1, 2, 4
		switch colourType {
		case ctGrayscale:
			return cbG1 + shift
		case ctPaletted:
			return cbP1 + shift
		}
	case 8:
		switch colourType {
		case ctGrayscale:
			return cbG8
		case ctTrueColor:
			return cbTC8
		case ctPaletted:
			return cbP8
		case ctGrayscaleAlpha:
			return cbGA8
		case ctTrueColorAlpha:
			return cbTCA8
		}
	case 16:
		switch colourType {
		case ctGrayscale:
			return cbG16
		case ctTrueColor:
			return cbTC16
		case ctGrayscaleAlpha:
			return cbGA16
		case ctTrueColorAlpha:
			return cbTCA16
		}
	}
	return cbInvalid
}

// cbPaletted reports whether cb is a palette type.
func cbPaletted(cb int) bool { return cbP1 <= cb && cb <= cbP8 }

// cbTrueColor reports whether cb is truecolour without alpha.
func cbTrueColor(cb int) bool { return cb == cbTC8 || cb == cbTC16 }

// parseIHDR reads the 13 bytes of an IHDR chunk.
func (h *pngHeader) parseIHDR(b []byte) error {
	if len(b) != 13 || b[10] != 0 || b[11] != 0 || b[12] > 1 {
		return errPNGNotFast
	}
	w := int32(binary.BigEndian.Uint32(b[0:4]))
	ht := int32(binary.BigEndian.Uint32(b[4:8]))
	if w <= 0 || ht <= 0 {
		return errPNGNotFast
	}
	h.cb = pngCombination(b[8], b[9])
	if h.cb == cbInvalid {
		return errPNGNotFast
	}
	h.width, h.height, h.depth = int(w), int(ht), int(b[8])
	h.interlaced = b[12] == 1
	return nil
}

// parsePLTE reads a PLTE chunk.
func (h *pngHeader) parsePLTE(b []byte) error {
	np := len(b) / 3
	if len(b)%3 != 0 || np <= 0 || np > 256 || np > 1<<uint(h.depth) {
		return errPNGNotFast
	}
	switch {
	case cbPaletted(h.cb):
		h.palette = make(color.Palette, 256)
		for i := range h.palette {
			h.palette[i] = color.RGBA{0, 0, 0, 0xff}
		}
		for i := range np {
			h.palette[i] = color.RGBA{b[3*i], b[3*i+1], b[3*i+2], 0xff}
		}
		h.palette = h.palette[:np]
	case h.cb == cbTC8 || h.cb == cbTCA8 || h.cb == cbTC16 || h.cb == cbTCA16:
		// Optional and ignored for truecolour.
	default:
		return errPNGNotFast
	}
	return nil
}

// parsetRNS reads a tRNS chunk.
func (h *pngHeader) parsetRNS(b []byte) error {
	switch h.cb {
	case cbG1, cbG2, cbG4, cbG8, cbG16:
		if len(b) != 2 {
			return errPNGNotFast
		}
		copy(h.transparent[:], b)
		switch h.cb {
		case cbG1:
			h.transparent[1] *= 0xff
		case cbG2:
			h.transparent[1] *= 0x55
		case cbG4:
			h.transparent[1] *= 0x11
		}
		h.useTransparent = true
	case cbTC8, cbTC16:
		if len(b) != 6 {
			return errPNGNotFast
		}
		copy(h.transparent[:], b)
		h.useTransparent = true
	case cbP1, cbP2, cbP4, cbP8:
		if len(b) > 256 {
			return errPNGNotFast
		}
		if len(h.palette) < len(b) {
			h.palette = h.palette[:len(b)]
		}
		for i, a := range b {
			c := h.palette[i].(color.RGBA)
			h.palette[i] = color.NRGBA{c.R, c.G, c.B, a}
		}
	default:
		return errPNGNotFast
	}
	return nil
}
