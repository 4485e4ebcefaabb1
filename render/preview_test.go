package render

import (
	"image/color"
	"testing"
)

func TestVolumePreview(t *testing.T) {
	// 4x3x2 volume: label 1 everywhere in z=1 (the axial mid-slice), 0 in z=0.
	w, h, d := 4, 3, 2
	labels := make([]uint32, w*h*d)
	for i := w * h; i < len(labels); i++ {
		labels[i] = 1
	}
	img, err := VolumePreview(labels, w, h, d, [3]float64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	// Width: gap + 4 + gap + 4 + gap + 3 + gap; height: gap + max(3, 2, 2) + gap.
	if b := img.Bounds(); b.Dx() != 4*previewGap+4+4+3 || b.Dy() != 2*previewGap+3 {
		t.Fatalf("montage %v", b)
	}
	if got := img.NRGBAAt(previewGap, previewGap); got != LabelColor(1) {
		t.Fatalf("axial slice pixel %v, want label 1's colour", got)
	}
	// Coronal slice (z up): top row is z=1 (label 1), bottom row z=0 (black).
	x := 2*previewGap + 4
	if got := img.NRGBAAt(x, previewGap+1); got != LabelColor(1) {
		t.Fatalf("coronal top %v", got)
	}
	if got := img.NRGBAAt(x, previewGap+2); got != (color.NRGBA{0, 0, 0, 255}) {
		t.Fatalf("coronal bottom %v", got)
	}
	// Anisotropic spacing stretches z.
	img, _ = VolumePreview(labels, w, h, d, [3]float64{1, 1, 3})
	if b := img.Bounds(); b.Dy() != 2*previewGap+6 {
		t.Fatalf("stretched montage %v", b)
	}
	if _, err := VolumePreview(labels[:5], w, h, d, [3]float64{}); err == nil {
		t.Fatal("short labels accepted")
	}
}
