package formats

import (
	"fmt"
	"image"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
)

// Image is a 2D input: its raster and, when it was an image file, the
// decoded picture (drawn under an overlay).
type Image struct {
	Raster  *imagegraph.Raster
	Decoded image.Image // nil for .npy arrays
}

// ReadImageFile reads a 2D image (PNG, JPEG, GIF, BMP, TIFF, WebP) or a 2D
// .npy array; "-" reads an image from stdin. A 3D .npy is an error that
// points at volume labeling.
func ReadImageFile(path string, stdin io.Reader) (*Image, error) {
	if strings.EqualFold(filepath.Ext(path), ".npy") {
		r, err := npy.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return npyImage(path, r)
	}
	return decodeImageFile(path, stdin)
}

// MapImageFile is ReadImageFile with a .npy array's samples mapped from
// the file instead of copied where they can be (npy.MapFile): no fresh
// memory for them and no copy. The image is valid until release is
// called; release does nothing for inputs that were read.
func MapImageFile(path string, stdin io.Reader) (img *Image, release func(), err error) {
	if !strings.EqualFold(filepath.Ext(path), ".npy") {
		img, err = decodeImageFile(path, stdin)
		return img, func() {}, err
	}
	r, release, err := npy.MapFile(path)
	if err != nil {
		return nil, nil, err
	}
	if img, err = npyImage(path, r); err != nil {
		release()
		return nil, nil, err
	}
	return img, release, nil
}

// npyImage is the image of a .npy array, which must be 2D.
func npyImage(path string, r *imagegraph.Raster) (*Image, error) {
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

// Display returns the picture to draw an overlay on: the decoded image,
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
