package imagegraph

import (
	"fmt"
	"math"
)

// SampleKind is the type of a raster's samples.
type SampleKind int

// The sample kinds. [RGB] is colour packed as 0xRRGGBB in a uint32.
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

// kindInfo describes a sample kind.
type kindInfo struct {
	name          string
	size          int
	signed, float bool
}

// kinds describes every sample kind.
var kinds = [...]kindInfo{
	Uint8:   {"uint8", 1, false, false},
	Uint16:  {"uint16", 2, false, false},
	Uint32:  {"uint32", 4, false, false},
	Int8:    {"int8", 1, true, false},
	Int16:   {"int16", 2, true, false},
	Int32:   {"int32", 4, true, false},
	Int64:   {"int64", 8, true, false},
	Uint64:  {"uint64", 8, false, false},
	Float32: {"float32", 4, true, true},
	Float64: {"float64", 8, true, true},
	RGB:     {"rgb", 4, false, false},
}

// valid reports whether k is one of the kinds.
func (k SampleKind) valid() bool { return k >= Uint8 && k <= RGB }

// IsFloat reports whether the kind is a floating-point type.
func (k SampleKind) IsFloat() bool { return k.valid() && kinds[k].float }

// IsSigned reports whether the kind holds negative values: the signed
// integer and floating-point types.
func (k SampleKind) IsSigned() bool { return k.valid() && kinds[k].signed }

// String returns the kind's name, as NumPy would spell it ("rgb" for
// packed colour).
func (k SampleKind) String() string {
	if k.valid() {
		return kinds[k].name
	}
	return fmt.Sprintf("SampleKind(%d)", int(k))
}

// Raster is a 2D (Depth 1) or 3D grid of typed samples, x fastest, then
// y, then z.
type Raster struct {
	Width, Height, Depth int
	// Kind is the sample type.
	Kind SampleKind
	// Data holds the Width*Height*Depth samples, of Kind's type
	// (Samples[uint32] for RGB); nil in a raster that only describes a
	// size and a type.
	Data Data
}

// NewRaster wraps data, not copied, as a raster of the given size. The
// kind follows from the sample type.
func NewRaster[T Sample](width, height, depth int, data []T) (*Raster, error) {
	return newRaster(width, height, depth, kindOf[T](), Samples[T](data))
}

// NewRGB wraps packed 0xRRGGBB colour samples, not copied, as a raster.
func NewRGB(width, height, depth int, data []uint32) (*Raster, error) {
	return newRaster(width, height, depth, RGB, Samples[uint32](data))
}

func newRaster(width, height, depth int, kind SampleKind, data Data) (*Raster, error) {
	n := data.Len()
	want, err := VoxelCount(width, height, depth)
	if err != nil {
		return nil, err
	}
	if want != n {
		return nil, fmt.Errorf("imagegraph: %dx%dx%d raster needs %d samples, got %d", width, height, depth, want, n)
	}
	return &Raster{Width: width, Height: height, Depth: depth, Kind: kind, Data: data}, nil
}

// MaxPixels is the most pixels one labeling kernel takes. The kernels'
// indices are 32-bit, and the labelers reserve the top bit. Larger
// rasters, up to [MaxVoxels], are labeled in slabs of at most MaxPixels
// voxels (cclabel.Labeler.LabelRaster).
const MaxPixels = 1<<31 - 1

// MaxKernelVoxels is the most voxels one GPU kernel launch is given. Its
// margin of 2^24 below [MaxPixels] keeps the kernels' 32-bit grid-stride
// indices from overflowing. Rasters beyond it are labeled in slabs of at
// most this many voxels, so two planes of such a raster must fit it.
const MaxKernelVoxels = MaxPixels - 1<<24

// MaxVoxels is the most voxels a raster may have. The bound keeps a
// header's product of sides far from overflowing; a raster of that many
// bytes is a terabyte.
const MaxVoxels = 1 << 40

// VoxelCount returns the number of voxels of a raster of the given size.
// It fails when a side is not positive, a plane has more than [MaxPixels]
// pixels, the product exceeds [MaxVoxels], or the volume exceeds MaxPixels
// with two planes above [MaxKernelVoxels] (such volumes are labeled two
// planes at a time at least). Readers of volumes that may exceed
// MaxPixels call it on header values before allocating.
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

// PixelCount returns the number of pixels of a raster one kernel takes.
// It fails when a side is not positive or the product exceeds
// [MaxPixels]. Readers call it on header values before allocating.
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

// Len returns the number of pixels (voxels).
func (r *Raster) Len() int { return r.Width * r.Height * r.Depth }

// Is3D reports whether the raster has more than one plane.
func (r *Raster) Is3D() bool { return r.Depth > 1 }

// Bytes returns the size of the samples in bytes.
func (r *Raster) Bytes() int64 {
	return int64(r.Len()) * int64(r.Kind.Size())
}

// Size returns the bytes per sample.
func (k SampleKind) Size() int {
	if k.valid() {
		return kinds[k].size
	}
	return 4
}

// Value returns sample i as a float64, packed RGB as its 0xRRGGBB value.
// It is meant for statistics and tests, not for hot loops.
func (r *Raster) Value(i int) float64 {
	if r.Data == nil {
		return math.NaN()
	}
	return r.Data.At(i).Float()
}

// Validate checks that the samples match Kind and the size.
func (r *Raster) Validate() error {
	if r.Data == nil || (r.Data.Kind() != r.Kind && !(r.Kind == RGB && r.Data.Kind() == Uint32)) {
		return fmt.Errorf("imagegraph: raster of kind %v holds %T", r.Kind, plain(r.Data))
	}
	n, err := VoxelCount(r.Width, r.Height, r.Depth)
	if err != nil {
		return err
	}
	if got := r.Data.Len(); got != n {
		return fmt.Errorf("imagegraph: %dx%dx%d raster holds %d samples", r.Width, r.Height, r.Depth, got)
	}
	return nil
}

// plain returns d as a plain Go slice ([]uint8, ...), nil for nil, for
// messages that name its type.
func plain(d Data) any {
	if d == nil {
		return nil
	}
	return d.slice()
}
