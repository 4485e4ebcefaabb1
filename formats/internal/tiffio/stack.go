package tiffio

import (
	"encoding/binary"
	"fmt"
	"image"

	"github.com/cclabel/cclabel/imagegraph"
)

// Stack assembles 2-D images of one size and sample class into a volume.
// Slice z goes to plane z. Samples follow [imagegraph.FromImage], applied to
// the whole stack: colour slices are grey when every slice has R=G=B, else
// packed 0xRRGGBB in every slice.
type Stack struct {
	// Width, Height and Depth are the volume's size, as given to New.
	Width, Height, Depth int
	// class is the sample class of the first slice (see sliceClass).
	class string
	// kind and data are the samples so far, allocated by the first add.
	kind imagegraph.SampleKind
	data imagegraph.Data
}

// NewStack starts a [Stack] of depth slices of width x height. The stack
// holds at most maxPixels voxels in all.
func NewStack(width, height, depth, maxPixels int) (*Stack, error) {
	n, err := imagegraph.VoxelCount(width, height, depth)
	if err != nil || n > maxPixels {
		return nil, fmt.Errorf("%d planes of %dx%d hold more than %d voxels", depth, width, height, maxPixels)
	}
	return &Stack{Width: width, Height: height, Depth: depth}, nil
}

// sliceClass names the sample class of a decoded image: slices of a stack
// must share it.
func sliceClass(img image.Image) string {
	switch img.(type) {
	case *image.Gray:
		return "8-bit grey"
	case *image.Gray16:
		return "16-bit grey"
	case *image.Paletted:
		return "paletted"
	case *image.RGBA64, *image.NRGBA64:
		return "16-bit colour"
	}
	return "8-bit colour"
}

// Add puts img at plane z. An image of another size or sample class than
// the first is an error; its message says what differs.
func (s *Stack) Add(z int, img image.Image) error {
	b := img.Bounds()
	if b.Dx() != s.Width || b.Dy() != s.Height {
		return fmt.Errorf("%dx%d, the first is %dx%d", b.Dx(), b.Dy(), s.Width, s.Height)
	}
	class := sliceClass(img)
	if s.class == "" {
		s.class = class
	} else if class != s.class {
		return fmt.Errorf("%s, the first is %s", class, s.class)
	}
	r, err := imagegraph.FromImage(img)
	if err != nil {
		return err
	}
	plane := s.Width * s.Height
	if s.data == nil {
		s.kind, s.data = r.Kind, sliceSamples(r.Kind, plane*s.Depth)
	}
	src := r.Data
	switch {
	case r.Kind == s.kind:
	case r.Kind == imagegraph.RGB && (s.kind == imagegraph.Uint8 || s.kind == imagegraph.Uint16):
		s.kind, s.data = imagegraph.RGB, sliceGreyToRGB(s.data, plane*s.Depth)
	case s.kind == imagegraph.RGB && (r.Kind == imagegraph.Uint8 || r.Kind == imagegraph.Uint16):
		src = sliceGreyToRGB(src, plane)
	default:
		return fmt.Errorf("%v, the first is %v", r.Kind, s.kind)
	}
	if !sliceCopy(s.data, z*plane, src) {
		return fmt.Errorf("%v, the first is %v", r.Kind, s.kind)
	}
	return nil
}

// Raster returns the stacked volume.
func (s *Stack) Raster() (*imagegraph.Raster, error) {
	r := &imagegraph.Raster{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.kind, Data: s.data}
	return r, r.Validate()
}

// sliceSamples allocates n samples for the slice kinds FromImage gives.
func sliceSamples(kind imagegraph.SampleKind, n int) imagegraph.Data {
	if kind != imagegraph.Uint8 && kind != imagegraph.Uint16 {
		kind = imagegraph.Uint32
	}
	d, _ := imagegraph.NewSamples(kind, n)
	return d
}

// sliceCopy copies src into dst from index off; it reports false when
// they are not of the same sample type.
func sliceCopy(dst imagegraph.Data, off int, src imagegraph.Data) bool {
	if dst.Kind() != src.Kind() || off+src.Len() > dst.Len() {
		return false
	}
	return copy(dst.Slice(off, off+src.Len()).Bytes(), src.Bytes()) == len(src.Bytes())
}

// sliceGreyToRGB returns the first n grey samples (uint8, or uint16 by their
// high bytes, as FromImage packs 16-bit colour) as packed 0xRRGGBB.
func sliceGreyToRGB(data imagegraph.Data, n int) imagegraph.Samples[uint32] {
	out := make(imagegraph.Samples[uint32], n)
	b, size := data.Bytes(), data.Kind().Size()
	high := size - 1 // the high byte's place in a sample
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 {
		high = 0
	}
	for i := range out {
		out[i] = uint32(b[i*size+high]) * 0x010101
	}
	return out
}
