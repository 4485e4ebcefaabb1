package render

import (
	"fmt"
	"image"
	"image/color"

	"github.com/disintegration/imaging"
)

// previewGap is the black margin between and around the montage's slices.
const previewGap = 4

// VolumePreview renders a colour montage of a label volume's three
// mid-slices.
//
// The slices sit side by side: axial (x right, y down, at z = depth/2),
// coronal (x right, z up, at y = height/2) and sagittal (y right, z up, at
// x = width/2), in [LabelColor]'s colours on black. Labels are rendered here
// to 8-bit colour first; imaging only flips and pastes those pictures.
// spacing scales the slices to physical proportions (nearest neighbour).
func VolumePreview(labels []uint32, width, height, depth int, spacing [3]float64) (*image.NRGBA, error) {
	if width < 1 || height < 1 || depth < 1 || len(labels) != width*height*depth {
		return nil, fmt.Errorf("formats: preview: %d labels for a %dx%dx%d volume", len(labels), width, height, depth)
	}
	at := func(x, y, z int) color.NRGBA { return LabelColor(labels[(z*height+y)*width+x]) }
	slice := func(w, h int, pixel func(u, v int) color.NRGBA) *image.NRGBA {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for v := range h {
			for u := range w {
				img.SetNRGBA(u, v, pixel(u, v))
			}
		}
		return img
	}
	axial := imaging.FlipV(slice(width, height, func(u, v int) color.NRGBA { return at(u, v, depth/2) }))
	coronal := imaging.FlipV(slice(width, depth, func(u, v int) color.NRGBA { return at(u, height/2, v) }))
	sagittal := imaging.FlipV(slice(height, depth, func(u, v int) color.NRGBA { return at(width/2, u, v) }))
	// Physical proportions: scale each axis by its spacing relative to the
	// smallest one.
	s := normalizedSpacing(spacing)
	scaled := []*image.NRGBA{
		resizeNearest(axial, s[0], s[1]),
		resizeNearest(coronal, s[0], s[2]),
		resizeNearest(sagittal, s[1], s[2]),
	}
	w, h := previewGap, 0
	for _, img := range scaled {
		w += img.Bounds().Dx() + previewGap
		h = max(h, img.Bounds().Dy())
	}
	out := imaging.New(w, h+2*previewGap, color.Black)
	x := previewGap
	for _, img := range scaled {
		out = imaging.Paste(out, img, image.Pt(x, previewGap+h-img.Bounds().Dy()))
		x += img.Bounds().Dx() + previewGap
	}
	return out, nil
}

// normalizedSpacing divides the spacing by its smallest positive entry,
// capping the stretch at 8; unknown or invalid spacing counts as 1.
func normalizedSpacing(spacing [3]float64) [3]float64 {
	lo := 0.0
	for _, v := range spacing {
		if v > 0 && (lo == 0 || v < lo) {
			lo = v
		}
	}
	var out [3]float64
	for i, v := range spacing {
		out[i] = 1
		if v > 0 && lo > 0 {
			out[i] = min(v/lo, 8)
		}
	}
	return out
}

// resizeNearest stretches img by the factors along x and y without mixing
// label colours.
func resizeNearest(img *image.NRGBA, fx, fy float64) *image.NRGBA {
	b := img.Bounds()
	w, h := max(1, int(float64(b.Dx())*fx+0.5)), max(1, int(float64(b.Dy())*fy+0.5))
	if w == b.Dx() && h == b.Dy() {
		return img
	}
	return imaging.Resize(img, w, h, imaging.NearestNeighbor)
}
