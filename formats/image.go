package formats

import (
	"fmt"
	"image"
	"io"
	"math"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/imagegraph"
)

// Image is a 2D input: its raster and, for an image file, its picture. The
// picture is the decoded image, drawn under an overlay.
type Image struct {
	Raster  *imagegraph.Raster
	Decoded image.Image // nil for .npy arrays
}

// ReadImageFile reads a 2D image file or a 2D .npy array. Images are PNG,
// JPEG, GIF, BMP, TIFF or WebP; "-" reads an image from stdin. A 3D .npy is
// an error that points at volume labeling.
func ReadImageFile(path string, stdin io.Reader) (*Image, error) {
	if f := rasterFormat(path); f != nil {
		r, err := f.readRaster(path)
		if err != nil {
			return nil, err
		}
		return rasterImage(path, r)
	}
	return decodeImageFile(path, stdin)
}

// rasterFormat returns the format of path when ReadImageFile reads it as
// a raster rather than decoding a picture (.npy), else nil.
func rasterFormat(path string) *format {
	if f := lookup(path); path != "-" && f != nil && f.readRaster != nil {
		return f
	}
	return nil
}

// MapImageFile is [ReadImageFile] mapping a .npy array's samples from the
// file. It maps them instead of copying where they can be ([npy.MapFile]): no
// fresh memory for them and no copy. The image is valid until release is
// called; release does nothing for inputs that were read.
func MapImageFile(path string, stdin io.Reader) (img *Image, release func(), err error) {
	f := rasterFormat(path)
	if f == nil {
		img, err = decodeImageFile(path, stdin)
		return img, func() {}, err
	}
	r, release, err := f.mapRaster(path)
	if err != nil {
		return nil, nil, err
	}
	if img, err = rasterImage(path, r); err != nil {
		release()
		return nil, nil, err
	}
	return img, release, nil
}

// rasterImage is the image of a raster read from a file, which must be
// 2D.
func rasterImage(path string, r *imagegraph.Raster) (*Image, error) {
	if r.Depth > 1 {
		return nil, fmt.Errorf("%s: a 3D array (%dx%dx%d): label it with 'cclabel volume'", path, r.Width, r.Height, r.Depth)
	}
	return &Image{Raster: r}, nil
}

// decodeImageFile reads an image file (not .npy), or stdin for "-".
func decodeImageFile(path string, stdin io.Reader) (*Image, error) {
	var img image.Image
	var err error
	if path == "-" {
		img, err = imageio.Decode(stdin, "stdin")
	} else {
		img, err = imageio.DecodeFile(path)
	}
	if err != nil {
		return nil, err
	}
	r, err := imagegraph.FromImage(img)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Image{Raster: r, Decoded: img}, nil
}

// ImagePixels returns the number of pixels of a 2D image file from its
// header. It counts the pixels [ReadImageFile] would read from the header
// alone ([Probe]), so that a label array can be made ready while the pixels
// are decoded; ok is false when the header does not tell (stdin, a file that
// is not a 2D image).
func ImagePixels(path string) (n int, ok bool) {
	if path == "-" {
		return 0, false
	}
	if f := lookup(path); f != nil && !f.decoded && f.readRaster == nil {
		return 0, false // a volume format: ReadImageFile does not read it
	}
	c, err := Probe(path, nil)
	if err != nil || c.Depth != 1 || c.Frames != 1 || c.Width < 1 || c.Height < 1 {
		return 0, false
	}
	return c.Width * c.Height, true
}

// Display returns the picture to draw an overlay on. It is the decoded image,
// or the raster's first plane stretched to 8-bit grey.
func (m *Image) Display() image.Image {
	if m.Decoded != nil {
		return m.Decoded
	}
	r := m.Raster
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
