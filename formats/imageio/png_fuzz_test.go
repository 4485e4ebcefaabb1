package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// seedFiles returns small PNG files of several colour types, depths and
// layouts for the fuzzers' corpora.
func pngSeedFiles(t testing.TB) [][]byte {
	grey := image.NewGray(image.Rect(0, 0, 7, 5))
	for i := range grey.Pix {
		grey.Pix[i] = uint8(i * 37)
	}
	rgba := image.NewNRGBA(image.Rect(0, 0, 3, 4))
	for i := range rgba.Pix {
		rgba.Pix[i] = uint8(i * 29)
	}
	pal := image.NewPaletted(image.Rect(0, 0, 9, 3), color.Palette{color.Black, color.White, color.NRGBA{1, 2, 3, 4}})
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i % 3)
	}
	var files [][]byte
	for _, m := range []image.Image{grey, rgba, pal} {
		var b bytes.Buffer
		if err := png.Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		files = append(files, b.Bytes())
	}
	return append(files,
		pngSpec{width: 5, height: 3, depth: 2, colourType: 0, trns: []byte{0, 1}, raw: []byte{4, 1, 2, 3}, split: 3}.build(t),
		pngSpec{width: 3, height: 2, depth: 16, colourType: 2, trns: []byte{0, 0, 0, 0, 0, 0}, raw: []byte{3, 9}}.build(t),
		pngSpec{width: 2, height: 2, depth: 4, colourType: 3, plte: []byte{1, 2, 3}, raw: []byte{1, 0x12}}.build(t),
	)
}

func FuzzDecodePNGData(f *testing.F) {
	for _, s := range pngSeedFiles(f) {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, fixCRC bool) {
		if fixCRC {
			data = fixCRCs(data)
		}
		compareWithImagePNG(t, data)
	})
}

// FuzzBuiltPNG builds well-formed files (valid chunks and CRCs) from fuzzed
// headers and filtered data, so that fuzzing reaches the unfiltering and
// the conversion of every colour type, and compares the result with
// image/png's.
func FuzzBuiltPNG(f *testing.F) {
	f.Add(uint8(7), uint8(5), uint8(0), uint8(8), uint8(0), uint8(0), uint8(0), []byte{4, 1, 2, 3, 4, 5, 6, 7, 1, 9})
	f.Add(uint8(3), uint8(3), uint8(3), uint8(2), uint8(2), uint8(3), uint8(4), []byte{1, 0xff, 2, 0x1b, 4, 0xe4})
	f.Add(uint8(1), uint8(9), uint8(2), uint8(16), uint8(6), uint8(0), uint8(1), []byte{4, 0, 1, 2, 3, 4, 5, 3, 255})
	f.Add(uint8(11), uint8(2), uint8(4), uint8(8), uint8(0), uint8(0), uint8(0), []byte{3, 200, 100, 50, 25})
	f.Add(uint8(6), uint8(4), uint8(6), uint8(16), uint8(0), uint8(0), uint8(2), []byte{2, 1, 4, 8, 16})
	f.Add(uint8(9), uint8(1), uint8(0), uint8(1), uint8(2), uint8(0), uint8(0), []byte{0, 0xa5, 0x5a})
	f.Fuzz(func(t *testing.T, w, h, colourType, depth, trnsLen, plteLen, split uint8, raw []byte) {
		s := pngSpec{width: 1 + int(w)%64, height: 1 + int(h)%64, colourType: colourType % 7, depth: depth, raw: raw, level: int(split) % 10, split: int(split) % 16}
		// A valid combination, or leave it invalid now and then.
		if pngCombination(s.depth, s.colourType) == cbInvalid && split%8 != 0 {
			c := pngCombos[int(depth)%len(pngCombos)]
			s.colourType, s.depth = c.colourType, c.depth
		}
		if s.colourType == 3 {
			s.plte = make([]byte, 3*(1+int(plteLen)%256))
			for i := range s.plte {
				s.plte[i] = byte(i * 7)
			}
		}
		if trnsLen > 0 {
			s.trns = make([]byte, int(trnsLen)%260)
			for i := range s.trns {
				s.trns[i] = byte(len(raw) + i)
			}
		}
		compareWithImagePNG(t, s.build(t))
	})
}
