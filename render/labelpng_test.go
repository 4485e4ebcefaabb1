package render

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestWriteLabelsPNG16(t *testing.T) {
	labels := []uint32{0, 1, 2, 300, 65535, 4, 0, 9}
	var b bytes.Buffer
	if err := WriteLabelsPNG16(&b, labels, 4, 2); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray16)
	if !ok {
		t.Fatalf("decoded %T, want *image.Gray16", img)
	}
	for i, l := range labels {
		if got := uint32(g.Gray16At(i%4, i/4).Y); got != l {
			t.Errorf("pixel %d: %d, want %d", i, got, l)
		}
	}
}

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

func TestWriteLabelsPNG16Errors(t *testing.T) {
	var w countingWriter
	err := WriteLabelsPNG16(&w, []uint32{0, 5, 70000, 3}, 2, 2)
	testkit.WantError(t, err, "formats: 70000 labels do not fit a 16-bit PNG (max 65535); write .npy instead")
	if w.n != 0 {
		t.Errorf("%d bytes written before the error", w.n)
	}
	err = WriteLabelsPNG16(&w, []uint32{1, 2, 3}, 2, 2)
	testkit.WantError(t, err, "3 labels for a 2x2 image")
	if w.n != 0 {
		t.Errorf("%d bytes written before the error", w.n)
	}
}

func TestWritePNGColourLabels(t *testing.T) {
	labels := []uint32{0, 1, 1, 2, 2, 0}
	img, err := ColorLabels(labels, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePNG(&b, img); err != nil {
		t.Fatal(err)
	}
	got, err := imageio.Decode(&b, "labels.png")
	if err != nil {
		t.Fatal(err)
	}
	testkit.SameImage(t, got, img)
	testkit.WantError(t, WritePNG(&b, image.NewGray(image.Rect(0, 0, 0, 3))), "formats: png: ")
}
