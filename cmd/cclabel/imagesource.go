package main

import (
	"image"
	"math"

	"github.com/cclabel/cclabel/imagegraph"
)

// imageSource is a labeled input: its raster and, when it was an image
// file, the decoded image (shown under --overlay).
type imageSource struct {
	raster *imagegraph.Raster
	img    image.Image
}

// display returns the picture to draw an overlay on: the decoded image,
// or the raster's first plane stretched to 8-bit grey.
func (s *imageSource) display() image.Image {
	if s.img != nil {
		return s.img
	}
	r := s.raster
	n := r.Width * r.Height
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		v := r.Value(i)
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	g := image.NewGray(image.Rect(0, 0, r.Width, r.Height))
	if hi > lo {
		for i := range n {
			g.Pix[i] = uint8(math.Round(255 * (r.Value(i) - lo) / (hi - lo)))
		}
	}
	return g
}
