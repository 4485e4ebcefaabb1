package outofcore

import (
	"fmt"
	"os"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/slabs"
)

// spilled is a plane range of a volume labeled slab by slab: the slabs'
// local labels in a temporary file and the relabeling that maps them to
// the range's labels (1..Count by first occurrence within the range).
type spilled struct {
	file       *os.File
	m          *slabs.Relabeling
	slabVoxels int64
}

// labelRange reads planes planes from s (at its current plane), labels
// them in slabs of thick planes, joins the slabs and spills their labels
// to a temporary file in opts.TempDir. Times add to res.
func labelRange(s *raw.Stream, planes int, rule imagegraph.Rule, opts Options, thick int, res *Result) (*spilled, error) {
	file, err := os.CreateTemp(opts.TempDir, "cclabel-*.labels")
	if err != nil {
		return nil, fmt.Errorf("outofcore: %w", err)
	}
	// Unlinked at once: the open file holds the labels, and nothing is
	// left behind however the process ends.
	os.Remove(file.Name())
	sp := &spilled{file: file, slabVoxels: int64(thick) * int64(s.Width) * int64(s.Height)}
	sp.m, err = spillSlabs(s, planes, file, rule, opts, thick, res)
	if err != nil {
		sp.Close()
		return nil, err
	}
	return sp, nil
}

// spillSlabs is labelRange's loop.
func spillSlabs(s *raw.Stream, planes int, spill *os.File, rule imagegraph.Rule, opts Options, thick int, res *Result) (*slabs.Relabeling, error) {
	j, err := slabs.NewJoiner(s.Width, s.Height, slabs.CPULabel(rule, opts.Connectivity, 1))
	if err != nil {
		return nil, err
	}
	label := slabs.CPULabel(rule, opts.Connectivity, opts.Threads)
	if opts.Label != nil {
		label = opts.Label(rule)
	}
	plane := s.Width * s.Height
	samples, err := slabs.NewPlanes(s.Width, s.Height, thick, s.Kind)
	if err != nil {
		return nil, err
	}
	labels := make([]uint32, thick*plane)
	for z0 := 0; z0 < planes; z0 += thick {
		k := min(thick, planes-z0)
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
		n, err := label(slab, local)
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
		if opts.Progress != nil {
			opts.Progress(z0+k, planes)
		}
	}
	return j.Finish(), nil
}

// read fills dst with the range's labels from voxel on (relative to the
// range's first voxel); it may run on several goroutines at once.
func (sp *spilled) read(dst []uint32, voxel int64) error {
	if _, err := sp.file.ReadAt(bytesOf(dst), 4*voxel); err != nil {
		return fmt.Errorf("outofcore: reading back the spilled labels: %w", err)
	}
	for len(dst) > 0 {
		k := voxel / sp.slabVoxels
		part := dst[:min(int64(len(dst)), (k+1)*sp.slabVoxels-voxel)]
		if err := sp.m.Map(int(k), part); err != nil {
			return err
		}
		dst, voxel = dst[len(part):], voxel+int64(len(part))
	}
	return nil
}

// Close closes the spill file, which frees its space (it was unlinked when
// made).
func (sp *spilled) Close() error { return sp.file.Close() }

// bytesOf returns the memory of labels as bytes: the spill file holds
// labels in the machine's byte order, written and read back by the same
// process.
func bytesOf(labels []uint32) []byte {
	if len(labels) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(labels))), 4*len(labels))
}
