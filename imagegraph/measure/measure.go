package measure

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/cclabel/cclabel/imagegraph"
)

// Label is the set of label types [Compute] and [Relabel] read.
type Label interface {
	uint16 | uint32
}

// Options says what [Compute] measures besides size, bounding box,
// centroid and equivalent diameter, which it always measures.
type Options struct {
	// Intensity, when not nil, is the image whose samples give the
	// intensity statistics of [Component]: a raster of the labels' size
	// and of any sample type but RGB.
	Intensity *imagegraph.Raster
	// Slope and Inter scale the intensity samples as thresholds do: value =
	// stored*Slope + Inter (NIfTI scl_slope/scl_inter). Slope 0 means 1.
	Slope, Inter float64
	// Spacing is the physical size of a voxel along x, y and z; 0 means 1. It
	// weighs the surface, the contact areas and the equivalent diameter.
	Spacing [3]float64
	// Surface asks for [Component].Surface.
	Surface bool
	// Contacts asks for [Table].Contacts.
	Contacts bool
	// Threads is the number of goroutines; 0 means GOMAXPROCS.
	Threads int
}

// Component holds the measurements of one component. A label with no
// voxels has Size 0, Min math.MaxInt and Max -1 per axis (as
// imagegraph.Statistics gives them), and every other field 0.
type Component struct {
	// Size is the number of voxels.
	Size int64
	// Min and Max are the inclusive bounding box, as x, y, z.
	Min, Max [3]int
	// Centroid is the mean voxel position, as x, y, z (as
	// imagegraph.ComponentStats computes it).
	Centroid [3]float64
	// EqDiameter is the diameter of the sphere (3D) or disc (2D) of the
	// component's physical volume (area).
	EqDiameter float64

	// Sum, Mean, IMin, IMax and Std are the sum, mean, minimum, maximum
	// and population standard deviation of the scaled intensity samples,
	// and WCentroid the intensity-weighted centroid in voxel coordinates,
	// as x, y, z: set when Options.Intensity is.
	Sum, Mean, IMin, IMax, Std float64
	WCentroid                  [3]float64

	// Surface is the physical area of the component's voxel faces whose
	// neighbour across the face is not the component (3D), or the physical
	// length of such pixel edges (2D): set when Options.Surface is.
	Surface float64
}

// Contact is a pair of components that share at least one face
// (6-neighbours in 3D, 4 in 2D).
type Contact struct {
	// A and B are the labels, A < B.
	A, B uint32
	// Faces is the number of shared faces (pixel edges in 2D).
	Faces int64
	// Area is their physical area (length in 2D).
	Area float64
}

// Table holds the measurements of a labeling.
type Table struct {
	// Components holds label k's measurements at index k-1.
	Components []Component
	// Contacts holds the touching pairs in increasing order of A, then
	// B: set when Options.Contacts is.
	Contacts []Contact
	// First holds label k's first voxel's index at k-1 (-1: none), by [Compute].
	First []int
}

// SortContacts sorts contacts into [Table]'s order: by A, then B.
func SortContacts(contacts []Contact) {
	slices.SortFunc(contacts, func(x, y Contact) int {
		return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
}

// LabelError reports a label above the component count.
type LabelError struct {
	// Index is the position of the first such label.
	Index int
	// Label is the label found there.
	Label uint32
	// Count is the component count.
	Count int
}

// Error describes the label, where it is, and the count.
func (e *LabelError) Error() string {
	return fmt.Sprintf("measure: label %d at index %d is above the count %d", e.Label, e.Index, e.Count)
}

// Compute measures the components of labels, a w x h x d array, x fastest, with
// labels 0 (background) and 1..count, with opt.Threads goroutines: one pass at a
// provisional scale, or where it does not hold a pass cut short, one for the
// intensity's extremes and a full one (docs/measure.md).
// Integer results are exact, and so are the intensity sums, of the samples
// quantized to about 2^-58 of their largest magnitude ([QuantScale]): the table
// is the [Exact.Component]s of those sums, bit for bit the same at every thread
// count and on the device (package cuda). An intensity with a NaN or infinite
// value is summed in float64 instead, merged in a fixed order, so that its
// results differ between thread counts by rounding alone. It fails, before
// allocating, on sizes or options that are not valid, and on a label above
// count ([LabelError]).
func Compute[L Label](labels []L, w, h, d, count int, opt Options) (*Table, error) {
	if err := check(len(labels), w, h, d, count, &opt); err != nil {
		return nil, err
	}
	if opt.Intensity == nil {
		return compute[L, uint8](labels, nil, w, h, d, count, opt)
	}
	switch v := opt.Intensity.Data.(type) {
	case imagegraph.Samples[uint8]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[uint16]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[uint32]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[uint64]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[int8]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[int16]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[int32]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[int64]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[float32]:
		return compute(labels, v, w, h, d, count, opt)
	case imagegraph.Samples[float64]:
		return compute(labels, v, w, h, d, count, opt)
	}
	return nil, fmt.Errorf("measure: intensity samples of type %T", opt.Intensity.Data)
}

// check validates the arguments of [Compute], and sets opt's zero
// spacings to 1.
func check(n, w, h, d, count int, opt *Options) error {
	voxels, err := imagegraph.VoxelCount(w, h, d)
	if err != nil {
		return fmt.Errorf("measure: %w", err)
	}
	if voxels != n {
		return fmt.Errorf("measure: %dx%dx%d labels need %d entries, got %d", w, h, d, voxels, n)
	}
	if count < 0 || count > n || uint64(count) > math.MaxUint32 {
		return fmt.Errorf("measure: count %d out of range for %d labels", count, n)
	}
	for a, s := range opt.Spacing {
		if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			return fmt.Errorf("measure: spacing %g along %c is not a finite positive number", s, "xyz"[a])
		}
		if s == 0 {
			opt.Spacing[a] = 1
		}
	}
	if math.IsNaN(opt.Slope) || math.IsInf(opt.Slope, 0) || math.IsNaN(opt.Inter) || math.IsInf(opt.Inter, 0) {
		return fmt.Errorf("measure: scaling %g*x%+g is not finite", opt.Slope, opt.Inter)
	}
	if opt.Slope == 0 {
		opt.Slope = 1
	}
	if r := opt.Intensity; r != nil {
		if r.Width != w || r.Height != h || r.Depth != d || r.Data == nil || r.Data.Len() != n {
			return fmt.Errorf("measure: intensity %dx%dx%d does not match labels %dx%dx%d", r.Width, r.Height, r.Depth, w, h, d)
		}
		if r.Kind == imagegraph.RGB {
			return fmt.Errorf("measure: intensity of packed RGB colour samples")
		}
	}
	if opt.Threads < 0 {
		return fmt.Errorf("measure: %d threads: want 0 (all cores) or more", opt.Threads)
	}
	return nil
}
