package imagegraph_test

import (
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

func TestFromImage(t *testing.T) {
	rect := image.Rect(0, 0, 3, 2)
	gray16 := image.NewGray16(rect)
	gray16.SetGray16(1, 0, color.Gray16{Y: 40000})
	greyRGBA := image.NewNRGBA(rect)
	colour := image.NewNRGBA(rect)
	for i := range 6 {
		v := uint8(i * 10)
		greyRGBA.Pix[4*i], greyRGBA.Pix[4*i+1], greyRGBA.Pix[4*i+2], greyRGBA.Pix[4*i+3] = v, v, v, uint8(i) // alpha ignored
		colour.Pix[4*i], colour.Pix[4*i+1], colour.Pix[4*i+2], colour.Pix[4*i+3] = v, 1, 2, 255
	}
	pal := image.NewPaletted(rect, color.Palette{color.Black, color.White, color.White})
	pal.Pix = []uint8{0, 1, 2, 2, 1, 0}
	sub := image.NewGray(image.Rect(0, 0, 5, 5)).SubImage(image.Rect(1, 1, 4, 3)).(*image.Gray)
	sub.Pix[0] = 9 // pixel (1,1) of the parent: (0,0) of the sub-image

	tests := []struct {
		name string
		img  image.Image
		kind imagegraph.SampleKind
		want []float64
	}{
		{"gray16 keeps 16 bits", gray16, imagegraph.Uint16, []float64{0, 40000, 0, 0, 0, 0}},
		{"R=G=B is grey", greyRGBA, imagegraph.Uint8, []float64{0, 10, 20, 30, 40, 50}},
		{"colour is packed", colour, imagegraph.RGB, []float64{0x102, 0x0a0102, 0x140102, 0x1e0102, 0x280102, 0x320102}},
		{"paletted gives indices", pal, imagegraph.Uint8, []float64{0, 1, 2, 2, 1, 0}},
		{"sub-image", sub, imagegraph.Uint8, []float64{9, 0, 0, 0, 0, 0}},
	}
	for _, tc := range tests {
		r, err := imagegraph.FromImage(tc.img)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []float64
		for i := range r.Len() {
			got = append(got, r.Value(i))
		}
		if r.Kind != tc.kind || r.Width != 3 || r.Height != 2 || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v %dx%d %v, want %v %v", tc.name, r.Kind, r.Width, r.Height, got, tc.kind, tc.want)
		}
	}
	if _, err := imagegraph.FromImage(image.NewGray(image.Rect(0, 0, 0, 4))); err == nil {
		t.Error("empty image accepted")
	}
}

func TestStatisticsAndFilter(t *testing.T) {
	data := []uint8{
		5, 5, 0, 7,
		0, 0, 0, 7,
		5, 0, 7, 7,
	}
	r, _ := imagegraph.NewRaster(4, 3, 1, data)
	l, err := gridcc.Label(r, imagegraph.Rule{}, gridcc.Options{Connectivity: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := imagegraph.Statistics(l, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []imagegraph.ComponentStats{
		{Label: 1, Value: 5, Sample: r.SampleAt(0), Size: 2, Min: [3]int{0, 0, 0}, Max: [3]int{1, 0, 0}, Centroid: [3]float64{0.5, 0, 0}},
		{Label: 2, Value: 7, Sample: r.SampleAt(3), Size: 4, Min: [3]int{2, 0, 0}, Max: [3]int{3, 2, 0}, Centroid: [3]float64{2.75, 1.25, 0}},
		{Label: 3, Value: 5, Sample: r.SampleAt(8), Size: 1, Min: [3]int{0, 2, 0}, Max: [3]int{0, 2, 0}, Centroid: [3]float64{0, 2, 0}},
	}
	if !slices.Equal(stats, want) {
		t.Fatalf("stats %+v\nwant %+v", stats, want)
	}
	l.Filter(2, 0)
	if l.Count != 2 || !slices.Equal(l.Data, []uint32{1, 1, 0, 2, 0, 0, 0, 2, 0, 0, 2, 2}) {
		t.Fatalf("min-size 2: %d %v", l.Count, l.Data)
	}
	l.Filter(0, 1)
	if l.Count != 1 || !slices.Equal(l.Data, []uint32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1}) {
		t.Fatalf("largest 1: %d %v", l.Count, l.Data)
	}
}

// TestFromImageColourTypes checks the direct conversions of 8 and 16-bit
// colour against the definition: channels as stored for 8-bit RGBA and
// NRGBA, through color.NRGBA64Model for 16-bit; grey of the source's depth
// when R=G=B everywhere, else packed high bytes.
func TestFromImageColourTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][2]int{{1, 1}, {7, 1}, {1, 9}, {13, 11}, {300, 7}} {
		for _, grey := range []bool{false, true} {
			r := image.Rect(0, 0, sz[0], sz[1])
			imgs := []image.Image{image.NewRGBA(r), image.NewNRGBA(r), image.NewRGBA64(r), image.NewNRGBA64(r)}
			for _, img := range imgs {
				for y := range sz[1] {
					for x := range sz[0] {
						c := color.NRGBA64{uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32())}
						if rng.IntN(3) == 0 {
							c.A = 0xffff
						}
						if grey {
							c.G, c.B = c.R, c.R
						}
						img.(draw.Image).Set(x, y, c)
					}
				}
				// A sub-image has rows longer than its width.
				for _, m := range []image.Image{img, img.(interface {
					SubImage(image.Rectangle) image.Image
				}).SubImage(image.Rect(0, 0, max(1, sz[0]-1), sz[1]))} {
					got, err := imagegraph.FromImage(m)
					if err != nil {
						t.Fatal(err)
					}
					want := referenceRaster(m)
					if got.Kind != want.kind || got.Len() != len(want.values) {
						t.Fatalf("%T %v: kind %v, want %v", m, m.Bounds(), got.Kind, want.kind)
					}
					for i, v := range want.values {
						if got.Value(i) != v {
							t.Fatalf("%T %v grey=%v: value %d = %v, want %v", m, m.Bounds(), grey, i, got.Value(i), v)
						}
					}
				}
			}
		}
	}
}

// referenceRaster is FromImage's definition for colour images, pixel by
// pixel.
func referenceRaster(img image.Image) struct {
	kind   imagegraph.SampleKind
	values []float64
} {
	b := img.Bounds()
	var r, g, bl []uint32
	wide := false
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var cr, cg, cb uint32
			switch m := img.(type) {
			case *image.RGBA:
				c := m.RGBAAt(x, y)
				cr, cg, cb = uint32(c.R), uint32(c.G), uint32(c.B)
			case *image.NRGBA:
				c := m.NRGBAAt(x, y)
				cr, cg, cb = uint32(c.R), uint32(c.G), uint32(c.B)
			default:
				wide = true
				c := color.NRGBA64Model.Convert(img.At(x, y)).(color.NRGBA64)
				cr, cg, cb = uint32(c.R), uint32(c.G), uint32(c.B)
			}
			r, g, bl = append(r, cr), append(g, cg), append(bl, cb)
		}
	}
	out := struct {
		kind   imagegraph.SampleKind
		values []float64
	}{kind: imagegraph.Uint8}
	if wide {
		out.kind = imagegraph.Uint16
	}
	grey := true
	for i := range r {
		grey = grey && r[i] == g[i] && r[i] == bl[i]
	}
	for i := range r {
		switch {
		case grey:
			out.values = append(out.values, float64(r[i]))
		case wide:
			out.values = append(out.values, float64(r[i]>>8<<16|g[i]>>8<<8|bl[i]>>8))
		default:
			out.values = append(out.values, float64(r[i]<<16|g[i]<<8|bl[i]))
		}
	}
	if !grey {
		out.kind = imagegraph.RGB
	}
	return out
}
