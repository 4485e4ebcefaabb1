package imagegraph_test

import (
	"image"
	"image/color"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
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
	l, err := imagegraph.Label(r, imagegraph.Rule{}, imagegraph.Options{Connectivity: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := imagegraph.Statistics(l, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []imagegraph.ComponentStats{
		{Label: 1, Value: 5, Size: 2, Min: [3]int{0, 0, 0}, Max: [3]int{1, 0, 0}, Centroid: [3]float64{0.5, 0, 0}},
		{Label: 2, Value: 7, Size: 4, Min: [3]int{2, 0, 0}, Max: [3]int{3, 2, 0}, Centroid: [3]float64{2.75, 1.25, 0}},
		{Label: 3, Value: 5, Size: 1, Min: [3]int{0, 2, 0}, Max: [3]int{0, 2, 0}, Centroid: [3]float64{0, 2, 0}},
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
