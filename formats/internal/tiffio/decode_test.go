package tiffio

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	xtiff "golang.org/x/image/tiff"
)

func TestLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pixels := []struct {
		name        string
		bits        []int
		photometric int
		extra       []int
	}{
		{"grey8", []int{8}, 1, nil},
		{"white8", []int{8}, 0, nil},
		{"grey16", []int{16}, 1, nil},
		{"grey1", []int{1}, 1, nil},
		{"palette8", []int{8}, 3, nil},
		{"palette1", []int{1}, 3, nil},
		{"rgb8", []int{8, 8, 8}, 2, nil},
		{"rgba8", []int{8, 8, 8, 8}, 2, []int{2}},
		{"rgb16", []int{16, 16, 16}, 2, nil},
	}
	banded, grey, total := 0, 0, 0
	for _, px := range pixels {
		for _, comp := range []int{1, 5, 8, 32773} {
			for _, layout := range []string{"strips", "one strip", "tiles", "odd strips", "short tags"} {
				for _, size := range [][2]int{{37, 29}, {64, 64}, {101, 7}, {1, 40}} {
					s := tiffSpec{width: size[0], height: size[1], bits: px.bits, photometric: px.photometric,
						compression: comp, extraSamples: px.extra, big: rng.IntN(2) == 0}
					switch layout {
					case "strips":
						s.rowsPerStrip = 1 + rng.IntN(6)
					case "tiles":
						s.tileW, s.tileL = 16, 8
					case "odd strips":
						s.rowsPerStrip = 3
						s.extraCount = rng.IntN(3)
					case "short tags":
						s.rowsPerStrip, s.shortTags = 4, true
					}
					if px.bits[0] >= 8 && rng.IntN(3) == 0 {
						s.predictor = 2
					}
					data, ifd := s.build(rng)
					t.Run(fmt.Sprintf("%s/%d/%s/%v", px.name, comp, layout, size), func(t *testing.T) {
						total++
						// Extra bytes after PackBits strips are read as data.
						if _, err := xtiff.Decode(newPageFile(data, ifd, nil)); err != nil && (layout != "odd strips" || comp != 32773) {
							t.Fatalf("x/image/tiff refuses a valid page: %v", err)
						}
						if compareWithX(t, data, ifd) {
							banded++
						}
						if _, err := decodeGray(data, ifd, 3); err == nil {
							grey++
						}
					})
				}
			}
		}
	}
	if banded < total/2 || grey < total/5 {
		t.Errorf("%d of %d pages decoded in bands, %d by the grey decoder", banded, total, grey)
	}
	t.Logf("%d of %d pages decoded in bands, %d by the grey decoder", banded, total, grey)
}

func TestDamaged(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []tiffSpec{
		{width: 40, height: 30, bits: []int{8}, photometric: 1, compression: 8, rowsPerStrip: 4, shortStrip: true},
		{width: 40, height: 30, bits: []int{8}, photometric: 1, compression: 32773, rowsPerStrip: 4, shortStrip: true},
		{width: 40, height: 30, bits: []int{8}, photometric: 1, compression: 1, shortStrip: true},
		{width: 40, height: 30, bits: []int{16}, photometric: 1, compression: 1, predictor: 2, shortStrip: true},
		{width: 40, height: 30, bits: []int{8}, photometric: 1, compression: 1, noCount: true},
		{width: 40, height: 30, bits: []int{8}, photometric: 1, compression: 8, rowsPerStrip: 4, noCount: true},
		{width: 40, height: 30, bits: []int{8}, photometric: 3, compression: 8, rowsPerStrip: 5},
		{width: 40, height: 30, bits: []int{8}, photometric: 1, compression: 1, predictor: 3},
		{width: 40, height: 30, bits: []int{16}, photometric: 0, compression: 5, rowsPerStrip: 7, predictor: 2},
		{width: 40, height: 30, bits: []int{8}, photometric: 1, compression: 32773, tileW: 16, tileL: 16},
	} {
		data, ifd := s.build(rng)
		compareWithX(t, data, ifd)
		for i := range 300 {
			d := append([]byte(nil), data...)
			d[8+rng.IntN(len(d)-8)] ^= byte(1 + rng.IntN(255))
			if i%3 == 0 {
				d = d[:rng.IntN(len(d))]
			}
			if len(d) >= 8 {
				compareWithX(t, d, ifd)
			}
		}
	}
}

func TestSharedFiles(t *testing.T) {
	files, _ := filepath.Glob("../../../../shared/data/*/*.tif")
	if len(files) == 0 {
		t.Skip("no shared TIFF files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ReadHeader(newPageFile(data, 8, nil), int64(len(data)))
		if err != nil || l.Big {
			continue
		}
		order := l.Order
		for off, page := uint32(l.First), 0; off != 0 && page < 1000; page++ {
			compareWithX(t, data, off)
			if int(off)+2 > len(data) {
				break
			}
			n := int(order.Uint16(data[off:]))
			next := int(off) + 2 + 12*n
			if next+4 > len(data) {
				break
			}
			off = order.Uint32(data[next:])
		}
	}
}
