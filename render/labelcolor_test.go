package render

import (
	"image"
	"image/color"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

func TestLabelColor(t *testing.T) {
	if c := LabelColor(0); c != (color.NRGBA{0, 0, 0, 255}) {
		t.Errorf("label 0 is %v, want opaque black", c)
	}
	seen := map[color.NRGBA]uint32{}
	for l := uint32(1); l <= 1000; l++ {
		c := LabelColor(l)
		if c != LabelColor(l) {
			t.Fatalf("label %d: colour not deterministic", l)
		}
		if c.A != 255 {
			t.Errorf("label %d: alpha %d", l, c.A)
		}
		if m := max(c.R, c.G, c.B); m < 180 {
			t.Errorf("label %d: %v is too dark", l, c)
		}
		if m, n := max(c.R, c.G, c.B), min(c.R, c.G, c.B); int(m)-int(n) < 100 {
			t.Errorf("label %d: %v is not saturated", l, c)
		}
		if o, ok := seen[c]; ok {
			t.Errorf("labels %d and %d share colour %v", o, l, c)
		}
		seen[c] = l
		// Consecutive labels differ clearly.
		if d := colourDistance(c, LabelColor(l+1)); d < 150 {
			t.Errorf("labels %d and %d are only %.0f apart", l, l+1, d)
		}
	}
	// Labels 1..1000 are at least 9 apart, as documented.
	for a := uint32(1); a <= 1000; a++ {
		for b := a + 1; b <= 1000; b++ {
			if d := colourDistance(LabelColor(a), LabelColor(b)); d < 9 {
				t.Fatalf("labels %d and %d are only %.1f apart", a, b, d)
			}
		}
	}
	for _, l := range []uint32{1 << 16, 1 << 24, 1<<31 - 1, 1<<32 - 1} {
		if c := LabelColor(l); max(c.R, c.G, c.B) < 180 || c.A != 255 {
			t.Errorf("label %d: %v", l, c)
		}
	}
	// Pinned values: the colours must not change between releases or
	// platforms.
	for l, want := range map[uint32]color.NRGBA{
		1: {46, 100, 235, 255}, 2: {130, 214, 12, 255}, 3: {194, 49, 176, 255},
		1000: {183, 75, 48, 255}, 65535: {251, 43, 220, 255},
	} {
		if got := LabelColor(l); got != want {
			t.Errorf("label %d is %v, was %v", l, got, want)
		}
	}
}

// colourDistance is the Euclidean distance of two colours in RGB.
func colourDistance(a, b color.NRGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return sqrt(dr*dr + dg*dg + db*db)
}

// sqrt is Newton's method, enough for distances in tests.
func sqrt(x float64) float64 {
	if x == 0 {
		return 0
	}
	r := x
	for range 60 {
		r = (r + x/r) / 2
	}
	return r
}

func TestColorLabels(t *testing.T) {
	labels := []uint32{0, 1, 1, 2, 0, 7}
	img, err := ColorLabels(labels, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if img.Rect != image.Rect(0, 0, 3, 2) {
		t.Fatalf("bounds %v", img.Rect)
	}
	for i, l := range labels {
		if got := img.NRGBAAt(i%3, i/3); got != LabelColor(l) {
			t.Errorf("pixel %d: %v, want %v", i, got, LabelColor(l))
		}
	}
	_, err = ColorLabels(labels, 4, 2)
	testkit.WantError(t, err, "6 labels for a 4x2 image (want 8)")
	_, err = ColorLabels(nil, 0, 0)
	testkit.WantError(t, err, "both sides must be at least 1")
	_, err = ColorLabels(labels, -2, -3)
	testkit.WantError(t, err, "both sides must be at least 1")
}
