package tiffio

import "image"

// Uninvert complements the samples of a greyscale image in place. It undoes
// the inversion the TIFF decoder applies to WhiteIsZero images
// (PhotometricInterpretation 0, see [TagPhotometric]).
func Uninvert(img image.Image) {
	var pix []byte
	switch m := img.(type) {
	case *image.Gray:
		pix = m.Pix
	case *image.Gray16:
		pix = m.Pix // 0xffff - v complements both bytes
	}
	for i := range pix {
		pix[i] = ^pix[i]
	}
}
