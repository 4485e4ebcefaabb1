package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// combos lists every valid colour type and bit depth.
var pngCombos = []struct{ colourType, depth byte }{
	{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16},
	{2, 8}, {2, 16},
	{3, 1}, {3, 2}, {3, 4}, {3, 8},
	{4, 8}, {4, 16},
	{6, 8}, {6, 16},
}

// sizes are image sizes with odd, prime and one-pixel sides.
var pngSizes = [][2]int{{1, 1}, {1, 7}, {7, 1}, {2, 3}, {13, 11}, {31, 17}, {64, 3}, {97, 89}, {257, 5}}

// randomRaw returns filtered data of n bytes: rows of rowSize with a
// random filter byte (0-4) and bytes that are random or, with smooth,
// slowly varying so that they compress.
func randomPNGRaw(rng *rand.Rand, n, rowSize int, smooth bool) []byte {
	raw := make([]byte, n)
	for i := range raw {
		switch {
		case i%rowSize == 0:
			raw[i] = byte(rng.IntN(5))
		case smooth:
			raw[i] = byte(rng.IntN(3))
		default:
			raw[i] = byte(rng.Uint32())
		}
	}
	return raw
}

func TestPNGHandBuiltEveryCombination(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fast := 0
	for _, c := range pngCombos {
		for _, sz := range pngSizes {
			for _, variant := range []string{"plain", "trns", "split", "smooth"} {
				s := pngSpec{width: sz[0], height: sz[1], depth: c.depth, colourType: c.colourType, level: 6}
				rowSize := s.rawSize() / s.height
				s.raw = randomPNGRaw(rng, s.rawSize(), rowSize, variant == "smooth")
				if c.colourType == 3 {
					n := 1 + rng.IntN(1<<min(c.depth, 8))
					s.plte = make([]byte, 3*n)
					for i := range s.plte {
						s.plte[i] = byte(rng.Uint32())
					}
				}
				if variant == "trns" {
					switch c.colourType {
					case 0:
						s.trns = []byte{byte(rng.IntN(2)), byte(rng.Uint32())}
					case 2:
						s.trns = []byte{0, s.raw[1], 0, s.raw[2], 0, s.raw[3]}
					case 3:
						s.trns = make([]byte, 1+rng.IntN(len(s.plte)/3+2))
						for i := range s.trns {
							s.trns[i] = byte(rng.Uint32())
						}
					}
				}
				if variant == "split" {
					s.split = 1 + rng.IntN(40)
				}
				if compareWithImagePNG(t, s.build(t)) {
					fast++
				}
			}
		}
	}
	// Paletted files whose tRNS is longer than 1<<depth are refused by
	// both; everything else takes the fast path.
	if want := len(pngCombos) * len(pngSizes) * 4 * 9 / 10; fast < want {
		t.Errorf("fast path took %d files, want at least %d", fast, want)
	}
}

// randomImage returns an image of the given kind with random pixels;
// grey-like kinds get few distinct values so that they compress.
func randomPNGImage(rng *rand.Rand, kind string, w, h int) image.Image {
	r := image.Rect(0, 0, w, h)
	fill := func(pix []byte) {
		for i := range pix {
			pix[i] = byte(rng.Uint32())
		}
	}
	switch kind {
	case "gray":
		m := image.NewGray(r)
		fill(m.Pix)
		return m
	case "gray16":
		m := image.NewGray16(r)
		fill(m.Pix)
		return m
	case "rgba":
		m := image.NewRGBA(r)
		fill(m.Pix)
		for i := 3; i < len(m.Pix); i += 4 {
			m.Pix[i] = 0xff
		}
		return m
	case "nrgba":
		m := image.NewNRGBA(r)
		fill(m.Pix)
		return m
	case "rgba64":
		m := image.NewRGBA64(r)
		fill(m.Pix)
		for i := 6; i < len(m.Pix); i += 8 {
			m.Pix[i], m.Pix[i+1] = 0xff, 0xff
		}
		return m
	case "nrgba64":
		m := image.NewNRGBA64(r)
		fill(m.Pix)
		return m
	}
	// Paletted with 2, 4, 16 or 256 colours, some translucent.
	n := []int{2, 3, 16, 200, 256}[rng.IntN(5)]
	pal := make(color.Palette, n)
	for i := range pal {
		pal[i] = color.NRGBA{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), byte(200 + rng.IntN(56))}
	}
	m := image.NewPaletted(r, pal)
	for i := range m.Pix {
		m.Pix[i] = byte(rng.IntN(n))
	}
	return m
}

func TestEncodedByImagePNG(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	kinds := []string{"gray", "gray16", "rgba", "nrgba", "rgba64", "nrgba64", "paletted"}
	levels := []png.CompressionLevel{png.DefaultCompression, png.NoCompression, png.BestSpeed, png.BestCompression}
	if testing.Short() { // the race detector's run
		levels = levels[1:3]
	}
	for _, kind := range kinds {
		for _, sz := range append(pngSizes, [2]int{509, 503}) {
			for _, level := range levels {
				var b bytes.Buffer
				enc := png.Encoder{CompressionLevel: level}
				if err := enc.Encode(&b, randomPNGImage(rng, kind, sz[0], sz[1])); err != nil {
					t.Fatal(err)
				}
				if !compareWithImagePNG(t, b.Bytes()) {
					t.Fatalf("%s %v level %d: fast path refused a file image/png wrote", kind, sz, level)
				}
			}
		}
	}
}

func TestPNGLargeImagePipeline(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, kind := range []string{"gray", "rgba", "gray16", "paletted"} {
		m := randomPNGImage(rng, kind, 1500, 701)
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		if !compareWithImagePNG(t, b.Bytes()) {
			t.Fatalf("%s: fast path refused the file", kind)
		}
	}
}

func TestPNGRealFiles(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../testdata/*.png", "../../../shared/data/*/*.png", "testdata/*.png"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no PNG files found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !compareWithImagePNG(t, data) {
			t.Logf("%s: left to image/png", f)
		}
	}
	t.Logf("%d files", len(files))
}

func TestPNGDamagedFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var b bytes.Buffer
	png.Encode(&b, randomPNGImage(rng, "gray", 23, 19))
	good := b.Bytes()
	s := pngSpec{width: 9, height: 5, depth: 8, colourType: 3, plte: []byte{1, 2, 3, 4, 5, 6}, trns: []byte{9}, level: 9, split: 7}
	s.raw = randomPNGRaw(rng, s.rawSize(), s.rawSize()/5, true)
	hand := s.build(t)
	for _, data := range [][]byte{good, hand} {
		for n := range len(data) {
			compareWithImagePNG(t, data[:n])
		}
		flips := 2000
		if testing.Short() {
			flips = 200
		}
		for i := range flips {
			d := bytes.Clone(data)
			d[rng.IntN(len(d))] ^= byte(1 + rng.IntN(255))
			if i%2 == 0 {
				d = fixCRCs(d)
			}
			compareWithImagePNG(t, d)
		}
	}
	// Trailing data in the stream, too much and too little pixel data,
	// a bad filter byte, interlacing.
	for _, s := range []pngSpec{
		{width: 4, height: 3, depth: 8, colourType: 0, raw: make([]byte, 15+3), keepRaw: true},
		{width: 4, height: 3, depth: 8, colourType: 0, raw: make([]byte, 14), keepRaw: true},
		{width: 4, height: 3, depth: 8, colourType: 0, raw: []byte{5}},
		{width: 4, height: 3, depth: 8, colourType: 0, interlace: 1, raw: make([]byte, 30), keepRaw: true},
	} {
		compareWithImagePNG(t, s.build(t))
	}
}
