package outofcore

import (
	"fmt"
	"io"
	"os"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/slabs"
)

// Options configure Label.
type Options struct {
	// MaxMemory bounds what the labeling holds, in bytes: a slab's
	// samples and labels and the labeler's work on them, the seam and
	// the union-find (an estimate: see Plan).
	MaxMemory int64
	// Rule and Connectivity (6, 18 or 26) are the labeling's; the rule's
	// scaling comes from the file.
	Rule         imagegraph.Rule
	Connectivity int
	// Threads labels each slab (0: GOMAXPROCS).
	Threads int
	// DType is the label type: auto (uint16 when every label fits),
	// uint16 or uint32.
	DType string
	// TempDir holds the spilled labels ("" for os.TempDir()).
	TempDir string
	// SlabPlanes, when positive, sets the slab thickness instead of
	// MaxMemory (tests).
	SlabPlanes int
}

// Result describes a labeling.
type Result struct {
	Width, Height, Depth int
	Kind                 imagegraph.SampleKind
	// Format is the input's format (as imagegraph.Volume.Format).
	Format string
	// Count is the number of components.
	Count int
	// Slabs and SlabPlanes are how the volume was cut.
	Slabs, SlabPlanes int
	// Read, Label and Write are the time spent reading and labeling the
	// slabs (the first pass: reading includes decompression and
	// spilling) and writing the labels (the second pass).
	Read, Label, Write time.Duration
}

// BytesPerVoxel is Plan's estimate of what labeling holds per voxel
// beside the samples: the labels (4) and the labeler's work arrays.
const BytesPerVoxel = 16

// Plan returns the slab thickness that keeps a volume of planes of
// plane voxels of sampleSize bytes within maxMemory, or an error when not
// even one plane fits. It reserves three planes for the seam and the
// previous slab's last plane, and a tenth of the budget for the
// union-find and buffers.
func Plan(maxMemory int64, plane, sampleSize int) (int, error) {
	perPlane := int64(plane) * int64(sampleSize+BytesPerVoxel)
	fixed := 3 * int64(plane) * int64(sampleSize+4)
	avail := maxMemory - maxMemory/10 - fixed
	if avail < perPlane {
		return 0, fmt.Errorf("outofcore: --max-memory %d bytes holds no slab: one plane of %d voxels needs about %d", maxMemory, plane, perPlane+fixed+maxMemory/10)
	}
	return int(min(avail/perPlane, int64(imagegraph.MaxPixels/plane))), nil
}

// Label labels the volume file input (raw when rawOpts is not nil) slab
// by slab and writes its labels to output (.nii, .nii.gz or .npy).
func Label(input string, rawOpts *formats.RawOptions, output string, opts Options) (*Result, error) {
	if err := imagegraph.ValidConnectivity(opts.Connectivity, true); err != nil {
		return nil, err
	}
	if err := opts.Rule.Validate(); err != nil {
		return nil, err
	}
	s, ref, err := formats.OpenVolumeStream(input, rawOpts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	res := &Result{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.Kind, Format: ref.Format}
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
	spill, err := os.CreateTemp(opts.TempDir, "cclabel-*.labels")
	if err != nil {
		return nil, fmt.Errorf("outofcore: %w", err)
	}
	defer func() {
		spill.Close()
		os.Remove(spill.Name())
	}()
	m, err := firstPass(s, spill, rule, opts, thick, res)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", input, err)
	}
	res.Count, res.Slabs = m.Count, m.Slabs()
	start := time.Now()
	slabVoxels := int64(thick) * int64(plane)
	read := func(dst []uint32, voxel int64) error {
		if _, err := spill.ReadAt(bytesOf(dst), 4*voxel); err != nil {
			return fmt.Errorf("outofcore: reading back the spilled labels: %w", err)
		}
		for len(dst) > 0 {
			k := voxel / slabVoxels
			part := dst[:min(int64(len(dst)), (k+1)*slabVoxels-voxel)]
			if err := m.Map(int(k), part); err != nil {
				return err
			}
			dst, voxel = dst[len(part):], voxel+int64(len(part))
		}
		return nil
	}
	if err := formats.WriteVolumeLabelsFunc(output, ref, uint32(m.Count), opts.DType, read); err != nil {
		return nil, err
	}
	res.Write = time.Since(start)
	return res, nil
}

// firstPass reads, labels and joins the slabs, spilling their local
// labels to spill, and returns the relabeling.
func firstPass(s *raw.Stream, spill io.Writer, rule imagegraph.Rule, opts Options, thick int, res *Result) (*slabs.Relabeling, error) {
	label := func(r *imagegraph.Raster, dst []uint32, threads int) (int, error) {
		conn := opts.Connectivity
		if r.Depth == 1 {
			conn = slabs.InPlane(conn)
		}
		l, err := imagegraph.Label(r, rule, imagegraph.Options{Connectivity: conn, Threads: threads}, dst)
		if err != nil {
			return 0, err
		}
		return l.Count, nil
	}
	j, err := slabs.NewJoiner(s.Width, s.Height, func(r *imagegraph.Raster, dst []uint32) (int, error) {
		return label(r, dst, 1)
	})
	if err != nil {
		return nil, err
	}
	plane := s.Width * s.Height
	samples, err := slabs.NewPlanes(s.Width, s.Height, thick, s.Kind)
	if err != nil {
		return nil, err
	}
	labels := make([]uint32, thick*plane)
	for z0 := 0; z0 < s.Depth; z0 += thick {
		k := min(thick, s.Depth-z0)
		slab, err := slabs.Planes(samples, 0, k)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		if err := s.ReadPlanes(slab); err != nil {
			return nil, err
		}
		res.Read += time.Since(start)
		start = time.Now()
		local := labels[:k*plane]
		n, err := label(slab, local, opts.Threads)
		if err == nil {
			err = j.Add(slab, local, n)
		}
		if err != nil {
			return nil, err
		}
		res.Label += time.Since(start)
		start = time.Now()
		if _, err := spill.Write(bytesOf(local)); err != nil {
			return nil, fmt.Errorf("outofcore: spilling labels: %w", err)
		}
		res.Read += time.Since(start)
	}
	return j.Finish(), nil
}

// bytesOf returns the memory of labels as bytes: the spill file holds
// labels in the machine's byte order, written and read back by the same
// process.
func bytesOf(labels []uint32) []byte {
	if len(labels) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(labels))), 4*len(labels))
}
