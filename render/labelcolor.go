package render

import (
	"fmt"
	"image"
	"image/color"
)

// LabelColor returns the display colour of a label.
//
// Label 0 (background) is opaque black; any other label gets a bright,
// saturated colour that depends only on the label. Hues step around the colour
// wheel by the golden ratio, so consecutive labels lie at least 137 degrees
// apart; saturation (67% to 100%) and brightness (71% to 100%: no channel
// maximum below 180) vary along two other low-discrepancy sequences. Labels 1
// to 1000 all get distinct colours, at least 9 apart in RGB.
func LabelColor(label uint32) color.NRGBA {
	if label == 0 {
		return color.NRGBA{A: 255}
	}
	// 0x9e3779b9 is 2^32 divided by the golden ratio: hue = frac(label/phi).
	hue := label * 0x9e3779b9
	// Brightness and saturation follow two more such sequences, with the
	// fractional parts of the square roots of 3 and 2, so that labels
	// whose hues come close (labels a Fibonacci number apart) still differ.
	val := 180 + ((label*0xbb67ae85)>>24)*75/255
	sat := 170 + ((label*0x6a09e667)>>24)*85/255
	r, g, b := hsv(hue, sat, val)
	return color.NRGBA{R: r, G: g, B: b, A: 255}
}

// hsv converts a colour from hue (a fraction of a full turn, as a 32-bit
// fixed-point number), saturation and value (0..255) to RGB, in integer
// arithmetic so that every platform gives the same colours.
func hsv(hue, sat, val uint32) (r, g, b uint8) {
	h6 := uint64(hue) * 6
	sector := h6 >> 32
	f := uint32(h6>>24) & 0xff // position inside the sector, 0..255
	p := val * (255 - sat) / 255
	q := val * (255*255 - sat*f) / (255 * 255)
	t := val * (255*255 - sat*(255-f)) / (255 * 255)
	switch sector {
	case 0:
		return uint8(val), uint8(t), uint8(p)
	case 1:
		return uint8(q), uint8(val), uint8(p)
	case 2:
		return uint8(p), uint8(val), uint8(t)
	case 3:
		return uint8(p), uint8(q), uint8(val)
	case 4:
		return uint8(t), uint8(p), uint8(val)
	}
	return uint8(val), uint8(p), uint8(q)
}

// ColorLabels renders labels as an opaque colour image.
//
// labels holds width*height values, x fastest; each is drawn in its
// [LabelColor].
func ColorLabels(labels []uint32, width, height int) (*image.NRGBA, error) {
	if err := checkLabelSize(labels, width, height); err != nil {
		return nil, err
	}
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	prev, c := uint32(0), LabelColor(0)
	for i, l := range labels {
		if l != prev {
			prev, c = l, LabelColor(l)
		}
		p := img.Pix[4*i : 4*i+4 : 4*i+4]
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, c.A
	}
	return img, nil
}

// checkLabelSize checks that labels holds width*height values and that the
// size is one an image may have.
func checkLabelSize(labels []uint32, width, height int) error {
	if width < 1 || height < 1 {
		return fmt.Errorf("formats: label image size %dx%d: both sides must be at least 1", width, height)
	}
	if int64(width)*int64(height) != int64(len(labels)) {
		return fmt.Errorf("formats: %d labels for a %dx%d image (want %d)", len(labels), width, height, int64(width)*int64(height))
	}
	return nil
}
