package imagegraph

import (
	"fmt"
	"math"
)

// SampleKind is the type of a raster's samples.
type SampleKind int

// The sample kinds. RGB is colour packed as 0xRRGGBB in a uint32.
const (
	Uint8 SampleKind = iota + 1
	Uint16
	Uint32
	Int8
	Int16
	Int32
	Int64
	Uint64
	Float32
	Float64
	RGB
)

// String returns the kind's name, as NumPy would spell it ("rgb" for
// packed colour).
func (k SampleKind) String() string {
	switch k {
	case Uint8:
		return "uint8"
	case Uint16:
		return "uint16"
	case Uint32:
		return "uint32"
	case Int8:
		return "int8"
	case Int16:
		return "int16"
	case Int32:
		return "int32"
	case Int64:
		return "int64"
	case Uint64:
		return "uint64"
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case RGB:
		return "rgb"
	}
	return fmt.Sprintf("SampleKind(%d)", int(k))
}

// Sample is the set of Go types a raster can hold.
type Sample interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// Raster is a 2D (Depth 1) or 3D grid of typed samples, x fastest, then y,
// then z.
type Raster struct {
	Width, Height, Depth int
	// Kind is the sample type.
	Kind SampleKind
	// Data holds Width*Height*Depth samples: []uint8, []uint16, []uint32
	// (also for RGB), []uint64, []int8, []int16, []int32, []int64,
	// []float32 or []float64, matching Kind.
	Data any
}

// NewRaster wraps data (not copied) as a raster of the given size; the
// kind follows from the slice type.
func NewRaster[T Sample](width, height, depth int, data []T) (*Raster, error) {
	kind, ok := kindOf(data)
	if !ok {
		return nil, fmt.Errorf("imagegraph: unsupported sample type %T", data)
	}
	return newRaster(width, height, depth, kind, data, len(data))
}

// NewRGB wraps packed 0xRRGGBB colour samples (not copied) as a raster.
func NewRGB(width, height, depth int, data []uint32) (*Raster, error) {
	return newRaster(width, height, depth, RGB, data, len(data))
}

func newRaster(width, height, depth int, kind SampleKind, data any, n int) (*Raster, error) {
	want, err := VoxelCount(width, height, depth)
	if err != nil {
		return nil, err
	}
	if want != n {
		return nil, fmt.Errorf("imagegraph: %dx%dx%d raster needs %d samples, got %d", width, height, depth, want, n)
	}
	return &Raster{Width: width, Height: height, Depth: depth, Kind: kind, Data: data}, nil
}

// MaxPixels is the largest number of pixels one labeling kernel takes
// (Label, the GPU kernels): their indices are 32-bit and the labeler
// reserves the top bit. Larger rasters, up to MaxVoxels, are labeled in
// slabs of at most MaxPixels voxels (cclabel.Labeler.LabelRaster).
const MaxPixels = 1<<31 - 1

// MaxKernelVoxels is the most voxels a GPU kernel launch is given: a
// margin of 2^24 below MaxPixels keeps the kernels' 32-bit grid-stride
// indices from overflowing. Rasters beyond it are labeled in slabs of at
// most this many voxels, so two planes of such a raster must fit it.
const MaxKernelVoxels = MaxPixels - 1<<24

// MaxVoxels is the largest number of voxels a raster may have (2^40: a
// bound that keeps a header's product of sides far from overflowing; such
// a raster of bytes is a terabyte).
const MaxVoxels = 1 << 40

// VoxelCount returns width*height*depth, or an error when a side is not
// positive, a plane has more than MaxPixels pixels, the product exceeds
// MaxVoxels, or the volume exceeds MaxPixels with two planes above
// MaxKernelVoxels (such volumes are labeled two planes at a time at
// least). Readers of volumes that may exceed MaxPixels call it on header
// values before allocating.
func VoxelCount(width, height, depth int) (int, error) {
	if width < 1 || height < 1 || depth < 1 {
		return 0, fmt.Errorf("imagegraph: size %dx%dx%d: every side must be at least 1", width, height, depth)
	}
	plane := int64(width) * int64(height)
	if plane > MaxPixels {
		return 0, fmt.Errorf("imagegraph: size %dx%dx%d has more than %d pixels in a plane", width, height, depth, MaxPixels)
	}
	if int64(depth) > MaxVoxels || plane*int64(depth) > MaxVoxels {
		return 0, fmt.Errorf("imagegraph: size %dx%dx%d has more than %d voxels", width, height, depth, int64(MaxVoxels))
	}
	if plane*int64(depth) > MaxPixels && 2*plane > MaxKernelVoxels {
		return 0, fmt.Errorf("imagegraph: size %dx%dx%d: past %d voxels, two planes may hold at most %d", width, height, depth, MaxPixels, MaxKernelVoxels)
	}
	return int(plane) * depth, nil
}

// PixelCount returns width*height*depth, or an error when a side is not
// positive or the product exceeds MaxPixels. Readers call it on header
// values before allocating.
func PixelCount(width, height, depth int) (int, error) {
	if width < 1 || height < 1 || depth < 1 {
		return 0, fmt.Errorf("imagegraph: size %dx%dx%d: every side must be at least 1", width, height, depth)
	}
	n := int64(width) * int64(height)
	if n > MaxPixels || n*int64(depth) > MaxPixels {
		return 0, fmt.Errorf("imagegraph: size %dx%dx%d has more than %d pixels", width, height, depth, MaxPixels)
	}
	return int(n) * depth, nil
}

// kindOf maps a sample slice to its kind.
func kindOf(data any) (SampleKind, bool) {
	switch data.(type) {
	case []uint8:
		return Uint8, true
	case []uint16:
		return Uint16, true
	case []uint32:
		return Uint32, true
	case []uint64:
		return Uint64, true
	case []int8:
		return Int8, true
	case []int16:
		return Int16, true
	case []int32:
		return Int32, true
	case []int64:
		return Int64, true
	case []float32:
		return Float32, true
	case []float64:
		return Float64, true
	}
	return 0, false
}

// Len returns the number of pixels (voxels).
func (r *Raster) Len() int { return r.Width * r.Height * r.Depth }

// Is3D reports whether the raster has more than one plane.
func (r *Raster) Is3D() bool { return r.Depth > 1 }

// Bytes returns the memory held by the samples.
func (r *Raster) Bytes() int64 {
	return int64(r.Len()) * int64(r.Kind.Size())
}

// Size returns the bytes per sample.
func (k SampleKind) Size() int {
	switch k {
	case Uint8, Int8:
		return 1
	case Uint16, Int16:
		return 2
	case Uint64, Int64, Float64:
		return 8
	}
	return 4
}

// Value returns sample i as a float64 (packed RGB as its 0xRRGGBB value).
// It is meant for statistics and tests, not for hot loops.
func (r *Raster) Value(i int) float64 {
	switch d := r.Data.(type) {
	case []uint8:
		return float64(d[i])
	case []uint16:
		return float64(d[i])
	case []uint32:
		return float64(d[i])
	case []uint64:
		return float64(d[i])
	case []int8:
		return float64(d[i])
	case []int16:
		return float64(d[i])
	case []int32:
		return float64(d[i])
	case []int64:
		return float64(d[i])
	case []float32:
		return float64(d[i])
	case []float64:
		return d[i]
	}
	return math.NaN()
}

// Validate checks that Data matches Kind and the size.
func (r *Raster) Validate() error {
	kind, ok := kindOf(r.Data)
	if !ok || (kind != r.Kind && !(r.Kind == RGB && kind == Uint32)) {
		return fmt.Errorf("imagegraph: raster of kind %v holds %T", r.Kind, r.Data)
	}
	n, err := VoxelCount(r.Width, r.Height, r.Depth)
	if err != nil {
		return err
	}
	if got := sliceLen(r.Data); got != n {
		return fmt.Errorf("imagegraph: %dx%dx%d raster holds %d samples", r.Width, r.Height, r.Depth, got)
	}
	return nil
}

// sliceLen returns the length of a sample slice.
func sliceLen(data any) int {
	switch d := data.(type) {
	case []uint8:
		return len(d)
	case []uint16:
		return len(d)
	case []uint32:
		return len(d)
	case []uint64:
		return len(d)
	case []int8:
		return len(d)
	case []int16:
		return len(d)
	case []int32:
		return len(d)
	case []int64:
		return len(d)
	case []float32:
		return len(d)
	case []float64:
		return len(d)
	}
	return -1
}
