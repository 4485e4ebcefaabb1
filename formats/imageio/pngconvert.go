package imageio

import (
	"encoding/binary"
	"image"
	"image/color"
)

// unpackIndices stores rows of 1, 2 or 4-bit palette indices.
func (t *pngTarget) unpackIndices(depth int) func(y int, row []byte) {
	m := t.paletted
	w := m.Rect.Dx()
	return func(y int, row []byte) {
		dst := m.Pix[y*m.Stride : y*m.Stride+w]
		unpackBits(dst, row, depth, 1)
		t.noteIndices(dst)
	}
}

// unpackGrey stores rows of 1, 2 or 4-bit grey, scaled to 8 bits.
func unpackGrey(m *image.Gray, depth int) func(y int, row []byte) {
	w := m.Rect.Dx()
	scale := uint8(0xff / (1<<depth - 1))
	return func(y int, row []byte) {
		unpackBits(m.Pix[y*m.Stride:y*m.Stride+w], row, depth, scale)
	}
}

// unpackBits expands samples of depth bits (1, 2 or 4, most significant
// first) into one byte each, multiplied by scale.
func unpackBits(dst, row []byte, depth int, scale uint8) {
	perByte := 8 / depth
	shift := uint(8 - depth)
	for x := 0; x < len(dst); x += perByte {
		b := row[x/perByte]
		for k := 0; k < perByte && x+k < len(dst); k++ {
			dst[x+k] = (b >> shift) * scale
			b <<= uint(depth)
		}
	}
}

// greyToNRGBA stores grey rows of any depth with a tRNS grey value ty
// (already scaled to 8 bits) as NRGBA.
func greyToNRGBA(m *image.NRGBA, depth int, ty uint8) func(y int, row []byte) {
	w := m.Rect.Dx()
	grey := make([]byte, w)
	scale := uint8(0xff / (1<<depth - 1))
	return func(y int, row []byte) {
		g := grey
		if depth == 8 {
			g = row[:w]
		} else {
			unpackBits(grey, row, depth, scale)
		}
		pix := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x, v := range g {
			a := uint8(0xff)
			if v == ty {
				a = 0
			}
			p := pix[4*x : 4*x+4]
			p[0], p[1], p[2], p[3] = v, v, v, a
		}
	}
}

// greyAlphaToNRGBA stores 8-bit grey+alpha rows.
func greyAlphaToNRGBA(m *image.NRGBA) func(y int, row []byte) {
	w := m.Rect.Dx()
	return func(y int, row []byte) {
		pix := m.Pix[y*m.Stride : y*m.Stride+4*w]
		row = row[:2*w]
		for x := range w {
			v, a := row[2*x], row[2*x+1]
			p := pix[4*x : 4*x+4]
			p[0], p[1], p[2], p[3] = v, v, v, a
		}
	}
}

// rgbToRGBA stores 8-bit RGB rows as opaque RGBA: four pixels at a time
// from two overlapping 8-byte loads into two 8-byte stores, the last few
// pixels byte by byte.
func rgbToRGBA(m *image.RGBA) func(y int, row []byte) {
	w := m.Rect.Dx()
	const opaque = 0xff000000ff000000
	return func(y int, row []byte) {
		pix := m.Pix[y*m.Stride : y*m.Stride+4*w]
		row = row[:3*w]
		x := 0
		for ; x+6 <= w; x += 4 {
			s, d := row[3*x:3*x+16], pix[4*x:4*x+16]
			a := binary.LittleEndian.Uint64(s)     // pixels x, x+1
			b := binary.LittleEndian.Uint64(s[6:]) // pixels x+2, x+3
			binary.LittleEndian.PutUint64(d, a&0xffffff|(a>>24&0xffffff)<<32|opaque)
			binary.LittleEndian.PutUint64(d[8:], b&0xffffff|(b>>24&0xffffff)<<32|opaque)
		}
		for ; x < w; x++ {
			s, p := row[3*x:3*x+3], pix[4*x:4*x+4]
			p[0], p[1], p[2], p[3] = s[0], s[1], s[2], 0xff
		}
	}
}

// rgbToNRGBA stores 8-bit RGB rows with a tRNS colour as NRGBA.
func rgbToNRGBA(m *image.NRGBA, trns [6]byte) func(y int, row []byte) {
	w := m.Rect.Dx()
	tr, tg, tb := trns[1], trns[3], trns[5]
	return func(y int, row []byte) {
		pix := m.Pix[y*m.Stride : y*m.Stride+4*w]
		row = row[:3*w]
		for x := range w {
			s, p := row[3*x:3*x+3], pix[4*x:4*x+4]
			a := uint8(0xff)
			if s[0] == tr && s[1] == tg && s[2] == tb {
				a = 0
			}
			p[0], p[1], p[2], p[3] = s[0], s[1], s[2], a
		}
	}
}

// grey16ToNRGBA64 stores 16-bit grey rows with a tRNS grey value as
// NRGBA64.
func grey16ToNRGBA64(m *image.NRGBA64, ty uint16) func(y int, row []byte) {
	w := m.Rect.Dx()
	return func(y int, row []byte) {
		for x := range w {
			v := uint16(row[2*x])<<8 | uint16(row[2*x+1])
			a := uint16(0xffff)
			if v == ty {
				a = 0
			}
			m.SetNRGBA64(x, y, color.NRGBA64{v, v, v, a})
		}
	}
}

// greyAlpha16ToNRGBA64 stores 16-bit grey+alpha rows.
func greyAlpha16ToNRGBA64(m *image.NRGBA64) func(y int, row []byte) {
	w := m.Rect.Dx()
	return func(y int, row []byte) {
		pix := m.Pix[y*m.Stride : y*m.Stride+8*w]
		row = row[:4*w]
		for x := range w {
			s, p := row[4*x:4*x+4], pix[8*x:8*x+8]
			p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7] = s[0], s[1], s[0], s[1], s[0], s[1], s[2], s[3]
		}
	}
}

// rgb16ToRGBA64 stores 16-bit RGB rows as opaque RGBA64.
func rgb16ToRGBA64(m *image.RGBA64) func(y int, row []byte) {
	w := m.Rect.Dx()
	return func(y int, row []byte) {
		pix := m.Pix[y*m.Stride : y*m.Stride+8*w]
		row = row[:6*w]
		for x := range w {
			copy(pix[8*x:8*x+6], row[6*x:6*x+6])
			pix[8*x+6], pix[8*x+7] = 0xff, 0xff
		}
	}
}

// rgb16ToNRGBA64 stores 16-bit RGB rows with a tRNS colour as NRGBA64.
func rgb16ToNRGBA64(m *image.NRGBA64, trns [6]byte) func(y int, row []byte) {
	w := m.Rect.Dx()
	return func(y int, row []byte) {
		pix := m.Pix[y*m.Stride : y*m.Stride+8*w]
		row = row[:6*w]
		for x := range w {
			s, p := row[6*x:6*x+6], pix[8*x:8*x+8]
			copy(p, s)
			a := uint8(0xff)
			if [6]byte(s) == trns {
				a = 0
			}
			p[6], p[7] = a, a
		}
	}
}
