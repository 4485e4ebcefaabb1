package render

import (
	"image"
	"image/color"
	"strings"
	"testing"
)

// wantError checks that err is a one-line error starting with "formats: "
// that contains every one of parts.
func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "formats: ") || strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error %q is not one line starting with \"formats: \"", msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not contain %q", msg, p)
		}
	}
}

// sameImage checks that got has want's bounds and colours.
func sameImage(t *testing.T, got, want image.Image) {
	t.Helper()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
	}
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("pixel (%d, %d) = %v, want %v", x, y, got.At(x, y), want.At(x, y))
			}
		}
	}
}

// near reports whether every channel of a and b differs by at most tol.
func near(a, b color.NRGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}
