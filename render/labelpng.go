package render

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"slices"
)

// WritePNG encodes img as PNG at [png.BestSpeed].
//
// Label maps compress well even so, and speed matters for large images.
func WritePNG(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(w, img); err != nil {
		return fmt.Errorf("formats: %w", err)
	}
	return nil
}

// WriteLabelsPNG16 writes labels as a 16-bit greyscale PNG of their values.
//
// labels holds width*height values, x fastest, and the PNG is compressed
// on all cores. It fails before writing anything when a label exceeds
// 65535; .npy holds any number of labels.
func WriteLabelsPNG16(w io.Writer, labels []uint32, width, height int) error {
	if err := checkLabelSize(labels, width, height); err != nil {
		return err
	}
	if n := slices.Max(labels); n > 0xffff {
		return fmt.Errorf("formats: %d labels do not fit a 16-bit PNG (max 65535); write .npy instead", n)
	}
	return writeStreamPNG(w, width, height, 16, 0, 2, func(y int, row []byte) {
		for x, l := range labels[y*width : (y+1)*width] {
			row[2*x], row[2*x+1] = uint8(l>>8), uint8(l)
		}
	})
}
