package render

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

func TestOverlayGrey(t *testing.T) {
	base := image.NewGray(image.Rect(0, 0, 2, 2))
	base.Pix = []uint8{10, 100, 200, 255}
	labels := []uint32{0, 1, 2, 0}
	out, err := Overlay(base, labels, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range labels {
		got := out.NRGBAAt(i%2, i/2)
		v := base.Pix[i]
		want := color.NRGBA{v, v, v, 255}
		if l != 0 {
			c := LabelColor(l)
			mix := func(a, b uint8) uint8 { return uint8(math.Round(0.5*float64(a) + 0.5*float64(b))) }
			want = color.NRGBA{mix(c.R, v), mix(c.G, v), mix(c.B, v), 255}
		}
		if !testkit.Near(got, want, 1) {
			t.Errorf("pixel %d (label %d): %v, want %v", i, l, got, want)
		}
	}
	// alpha 1 shows the label colours, alpha 0 the image.
	full, _ := Overlay(base, labels, 1)
	if got := full.NRGBAAt(1, 0); got != LabelColor(1) {
		t.Errorf("alpha 1: %v, want %v", got, LabelColor(1))
	}
	none, _ := Overlay(base, labels, 0)
	if got := none.NRGBAAt(1, 0); got != (color.NRGBA{100, 100, 100, 255}) {
		t.Errorf("alpha 0: %v, want the grey 100", got)
	}
}

func TestOverlayBases(t *testing.T) {
	// 16-bit grey is stretched from its minimum to its maximum.
	g16 := image.NewGray16(image.Rect(0, 0, 3, 1))
	g16.SetGray16(0, 0, color.Gray16{Y: 1000})
	g16.SetGray16(1, 0, color.Gray16{Y: 1500})
	g16.SetGray16(2, 0, color.Gray16{Y: 2000})
	out, err := Overlay(g16, make([]uint32, 3), 0.4)
	if err != nil {
		t.Fatal(err)
	}
	for x, want := range []uint8{0, 127, 255} {
		if got := out.NRGBAAt(x, 0); got != (color.NRGBA{want, want, want, 255}) {
			t.Errorf("16-bit pixel %d: %v, want grey %d", x, got, want)
		}
	}
	g16.Pix = []uint8{0x80, 0x10, 0x80, 0x10, 0x80, 0x10}
	out, _ = Overlay(g16, make([]uint32, 3), 0.4)
	if got := out.NRGBAAt(1, 0); got != (color.NRGBA{0x80, 0x80, 0x80, 255}) {
		t.Errorf("constant 16-bit image: %v, want its high byte", got)
	}
	// Colour keeps its colour; transparency is composited over black; a
	// sub-image with a non-zero origin works.
	rgba := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	rgba.SetNRGBA(2, 2, color.NRGBA{200, 100, 50, 255})
	rgba.SetNRGBA(3, 2, color.NRGBA{200, 100, 50, 0})
	sub := rgba.SubImage(image.Rect(2, 2, 4, 3))
	out, err = Overlay(sub, []uint32{0, 0}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if out.Rect != image.Rect(0, 0, 2, 1) {
		t.Fatalf("bounds %v", out.Rect)
	}
	if got := out.NRGBAAt(0, 0); got != (color.NRGBA{200, 100, 50, 255}) {
		t.Errorf("colour pixel: %v", got)
	}
	if got := out.NRGBAAt(1, 0); got != (color.NRGBA{0, 0, 0, 255}) {
		t.Errorf("transparent pixel: %v, want black", got)
	}
	// JPEG-style YCbCr goes through the colour model.
	ycc := image.NewYCbCr(image.Rect(0, 0, 2, 2), image.YCbCrSubsampleRatio420)
	for i := range ycc.Y {
		ycc.Y[i] = 128
	}
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = 128, 128
	}
	out, err = Overlay(ycc, make([]uint32, 4), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.NRGBAAt(1, 1); !testkit.Near(got, color.NRGBA{128, 128, 128, 255}, 1) {
		t.Errorf("YCbCr pixel: %v", got)
	}
}

func TestOverlayErrors(t *testing.T) {
	base := image.NewGray(image.Rect(0, 0, 2, 2))
	_, err := Overlay(base, make([]uint32, 3), 0.5)
	testkit.WantError(t, err, "3 labels for a 2x2 image")
	for _, a := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		_, err := Overlay(base, make([]uint32, 4), a)
		testkit.WantError(t, err, "alpha", "not in [0, 1]")
	}
	_, err = Overlay(image.NewGray(image.Rect(0, 0, 0, 0)), nil, 0.5)
	testkit.WantError(t, err, "at least 1")
}
