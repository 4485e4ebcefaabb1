package raster

import (
	"cmp"
	"fmt"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
)

// OutOfCoreOptions configure [LabelOutOfCore] and [LabelChunk].
type OutOfCoreOptions struct {
	// MaxMemory bounds what the labeling holds, in bytes: a slab's samples
	// and labels and the labeler's work on them, the seam and the union-find
	// (an estimate: see [Plan]).
	MaxMemory int64
	// Rule and Connectivity (6, 18 or 26) are the labeling's; the rule's
	// scaling comes from the file.
	Rule         imagegraph.Rule
	Connectivity int
	// Threads labels each slab (0: GOMAXPROCS) on the CPU.
	Threads int
	// Labeler, when set, labels each slab instead of the CPU labeler (on the
	// GPU when it takes them: [cclabel.Labeler.LabelFunc]). Seams are labeled
	// on the CPU.
	Labeler *cclabel.Labeler
	// DType is the label type: auto (uint16 when every label fits; also
	// ""), uint16 or uint32.
	DType string
	// TempDir holds the spilled labels ("" for os.TempDir()).
	TempDir string
	// SlabPlanes, when positive, sets the slab thickness instead of
	// MaxMemory (tests).
	SlabPlanes int
	// Progress, when set, is told after each slab of the first pass
	// (reading and labeling the slabs) how many of the planes are done;
	// the labels are written once all are.
	Progress func(done, planes int)
}

// OutOfCoreResult describes a labeling.
type OutOfCoreResult struct {
	Width, Height, Depth int
	Kind                 imagegraph.SampleKind
	// Format is the input's format (as [imagegraph.Volume.Format]).
	Format string
	// Rule and Connectivity are the labeling's ([Merge] reads them from the
	// chunks).
	Rule         imagegraph.Rule
	Connectivity int
	// Count is the number of components.
	Count int
	// Slabs and SlabPlanes are how the volume was cut.
	Slabs, SlabPlanes int
	// Backend is the backend that labeled the last slab (BackendCPU
	// without OutOfCoreOptions.Labeler).
	Backend cclabel.Backend
	// Read, Label and Write are the time spent reading and labeling the
	// slabs (the first pass: reading includes decompression and
	// spilling) and writing the labels (the second pass).
	Read, Label, Write time.Duration
}

// BytesPerVoxel is [Plan]'s estimate of labeling's memory per voxel. It
// counts what labeling holds beside the samples: the labels (4) and the
// labeler's work arrays.
const BytesPerVoxel = 16

// Plan returns the slab thickness that keeps labeling within maxMemory. The
// volume's planes have plane voxels of sampleSize bytes; it returns an error
// when not even one plane fits. It reserves three planes for the seam and the
// previous slab's last plane, and a tenth of the budget for the union-find
// and buffers.
func Plan(maxMemory int64, plane, sampleSize int) (int, error) {
	perPlane := int64(plane) * int64(sampleSize+BytesPerVoxel)
	fixed := 3 * int64(plane) * int64(sampleSize+4)
	avail := maxMemory - maxMemory/10 - fixed
	if avail < perPlane {
		return 0, fmt.Errorf("outofcore: a memory budget of %d bytes holds no slab: one plane of %d voxels needs about %d", maxMemory, plane, perPlane+fixed+maxMemory/10)
	}
	return int(min(avail/perPlane, int64(imagegraph.MaxPixels/plane))), nil
}

// FitsInMemory reports whether the volume at input can be labeled in
// memory within maxMemory, its samples and [BytesPerVoxel] bytes a voxel
// beside them. Inputs that cannot be read plane by plane
// (TIFF stacks, folders, 4D or paired NIfTI) are read in memory as
// without a memory bound, and their reader reports what it finds.
func FitsInMemory(input string, raw *formats.RawOptions, maxMemory int64) bool {
	s, _, err := formats.OpenVolumeStream(input, raw)
	if err != nil {
		return true
	}
	defer s.Close()
	voxels := int64(s.Width) * int64(s.Height) * int64(s.Depth)
	return voxels*int64(s.Kind.Size()+BytesPerVoxel) <= maxMemory
}

// LabelOutOfCore labels the volume file input slab by slab into output. The
// input is raw when rawOpts is not nil; the labels go to output (.nii,
// .nii.gz or .npy).
//
// The file is read a slab of planes at a time ([formats.OpenVolumeStream]);
// each slab is labeled in memory, joined to the previous one at their
// seam, and its local labels are spilled to a temporary file
// ([slabs.Label]). A second pass reads them back, maps them to the
// volume's labels and writes the label volume
// ([formats.WriteVolumeLabelsFunc]). Only the current slab, the seam planes
// and the union-find over the slabs' labels are held, and the labels are
// the in-memory labeling's, bit for bit.
func LabelOutOfCore(input string, rawOpts *formats.RawOptions, output string, opts OutOfCoreOptions) (*OutOfCoreResult, error) {
	if err := imagegraph.ValidConnectivity(opts.Connectivity, true); err != nil {
		return nil, err
	}
	if err := opts.Rule.Validate(); err != nil {
		return nil, err
	}
	if err := checkOutput(output, opts.DType); err != nil {
		return nil, err
	}
	s, ref, err := formats.OpenVolumeStream(input, rawOpts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	res := &OutOfCoreResult{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.Kind, Format: ref.Format,
		Rule: opts.Rule, Connectivity: opts.Connectivity}
	plane := s.Width * s.Height
	thick := opts.SlabPlanes
	if thick <= 0 {
		if thick, err = Plan(opts.MaxMemory, plane, s.Kind.Size()); err != nil {
			return nil, err
		}
	}
	thick = min(thick, s.Depth)
	res.SlabPlanes = thick
	rule := opts.Rule
	rule.Slope, rule.Inter = ref.Slope, ref.Inter
	sp, out, err := labelRange(s, s.Depth, rule, opts, thick, res)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", input, err)
	}
	defer sp.Close()
	res.Count, res.Slabs = out.Count, out.Slabs
	start := time.Now()
	if err := formats.WriteVolumeLabelsFunc(output, ref, uint32(out.Count), cmp.Or(opts.DType, "auto"), sp.ReadLabels); err != nil {
		return nil, err
	}
	res.Write = time.Since(start)
	return res, nil
}

// checkOutput checks, before any work, that output and dtype can be
// written out of core: .nii, .nii.gz or .npy, as auto, uint16 or uint32.
func checkOutput(output, dtype string) error {
	switch dtype {
	case "", "auto", "uint16", "uint32":
	default:
		return fmt.Errorf("outofcore: label type %q: want auto, uint16 or uint32", dtype)
	}
	if formats.StreamsLabels(output) {
		return nil
	}
	return fmt.Errorf("outofcore: %s: label volumes are written out of core as .nii, .nii.gz or .npy", output)
}
