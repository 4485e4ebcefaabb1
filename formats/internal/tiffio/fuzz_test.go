package tiffio

import (
	"math/rand/v2"
	"testing"
)

// seedSpecs are small pages of several layouts for the fuzzers' corpora.
func seedSpecs() []tiffSpec {
	return []tiffSpec{
		{width: 19, height: 13, bits: []int{8}, photometric: 1, compression: 8, rowsPerStrip: 3, predictor: 2},
		{width: 19, height: 13, bits: []int{16}, photometric: 0, compression: 32773, rowsPerStrip: 4, big: true},
		{width: 33, height: 17, bits: []int{8}, photometric: 1, compression: 5, tileW: 16, tileL: 8},
		{width: 20, height: 9, bits: []int{8}, photometric: 1, compression: 1},
		{width: 20, height: 9, bits: []int{8, 8, 8}, photometric: 2, compression: 8, rowsPerStrip: 2},
		{width: 20, height: 9, bits: []int{8}, photometric: 3, compression: 1, rowsPerStrip: 2},
	}
}

// FuzzDecodePage compares DecodePage, the grey decoder and the banded
// decoder with x/image/tiff on mutated files (the IFD offset is taken
// from the header).
func FuzzDecodePage(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range seedSpecs() {
		data, _ := s.build(rng)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 8 {
			return
		}
		compareWithX(t, data, orderOf(data).Uint32(data[4:]))
	})
}

// FuzzBuilt builds well-formed pages from fuzzed parameters, so that
// fuzzing reaches every layout, depth and compression, and compares the
// decoders with x/image/tiff.
func FuzzBuilt(f *testing.F) {
	f.Add(uint8(19), uint8(13), uint8(0), uint8(0), uint8(3), uint8(2), uint64(1))
	f.Add(uint8(40), uint8(3), uint8(1), uint8(3), uint8(0), uint8(0), uint64(2))
	f.Add(uint8(33), uint8(17), uint8(4), uint8(1), uint8(17), uint8(1), uint64(3))
	f.Add(uint8(8), uint8(70), uint8(6), uint8(2), uint8(5), uint8(0), uint64(4))
	f.Fuzz(func(t *testing.T, w, h, pixels, comp, layout, pred uint8, seed uint64) {
		kinds := []struct {
			bits        []int
			photometric int
		}{{[]int{8}, 1}, {[]int{8}, 0}, {[]int{16}, 1}, {[]int{16}, 0}, {[]int{1}, 1}, {[]int{8}, 3}, {[]int{8, 8, 8}, 2}, {[]int{16, 16, 16}, 2}}
		k := kinds[int(pixels)%len(kinds)]
		s := tiffSpec{width: 1 + int(w)%80, height: 1 + int(h)%80, bits: k.bits, photometric: k.photometric,
			compression: []int{1, 5, 8, 32773}[comp%4], big: seed%2 == 1}
		switch {
		case layout%4 == 1:
			s.tileW, s.tileL = 16, 8*(1+int(layout/4)%3)
		case layout > 0:
			s.rowsPerStrip = int(layout) % 40
		}
		if k.bits[0] >= 8 {
			s.predictor = int(pred) % 3
		}
		data, ifd := s.build(rand.New(rand.NewPCG(seed, 7)))
		compareWithX(t, data, ifd)
	})
}
