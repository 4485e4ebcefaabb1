package slabs

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"unsafe"
)

// Sink takes the labels [Label] makes. It is [Into] a slice in memory, or a
// [Spill] file.
type Sink interface {
	// start readies the sink for a volume of voxels voxels.
	start(voxels int64) error
	// labels returns where the labels of planes z0..z1-1 go.
	labels(z0, z1, plane int) ([]uint32, error)
	// put takes the next slab's local labels once they are joined.
	put(labels []uint32) error
	// finish maps the slabs' local labels to the volume's with m.
	finish(m *Relabeling, slabs []slab, plane, threads int) error
}

// memory is the Sink of Into.
type memory struct {
	dst []uint32
}

// Into returns a [Sink] that labels the slabs in place in dst. dst holds one
// label per voxel of the volume, and the slabs are relabeled there.
func Into(dst []uint32) Sink { return &memory{dst: dst} }

func (s *memory) start(voxels int64) error {
	if int64(len(s.dst)) != voxels {
		return fmt.Errorf("slabs: %d labels for a volume of %d voxels", len(s.dst), voxels)
	}
	return nil
}

func (s *memory) labels(z0, z1, plane int) ([]uint32, error) {
	return s.dst[z0*plane : z1*plane], nil
}

func (s *memory) put([]uint32) error { return nil }

// finish relabels every slab whose labels are not already the volume's
// (not filled, nor labeled as they are).
func (s *memory) finish(m *Relabeling, slabs []slab, plane, threads int) error {
	for k, sl := range slabs {
		if sl.filled || m.Identity(k) {
			continue
		}
		if err := m.Apply(k, s.dst[sl.z0*plane:sl.z1*plane], threads); err != nil {
			return err
		}
	}
	return nil
}

// Spill is a [Sink] that writes the slabs' local labels to a temporary file.
// It holds one slab's in memory, and maps them to the volume's labels as they
// are read back ([Spill.ReadLabels]).
type Spill struct {
	file    *os.File
	scratch []uint32
	// starts[k] is slab k's first voxel.
	starts []int64
	// written is the count of labels spilled; voxels, the volume's.
	written, voxels int64
	// m maps the labels once Label has ended; used is set once it has
	// started.
	m    *Relabeling
	used bool
}

// NewSpill returns a [Spill] whose file is made in dir and unlinked at once.
// dir "" means [os.TempDir]. Only the open file holds the labels, and nothing
// is left behind however the process ends. Close frees it.
func NewSpill(dir string) (*Spill, error) {
	file, err := os.CreateTemp(dir, "cclabel-*.labels")
	if err != nil {
		return nil, err
	}
	os.Remove(file.Name())
	return &Spill{file: file}, nil
}

func (s *Spill) start(voxels int64) error {
	if s.used {
		return errors.New("slabs: a Spill takes one volume")
	}
	s.used, s.voxels = true, voxels
	return nil
}

func (s *Spill) labels(z0, z1, plane int) ([]uint32, error) {
	n := (z1 - z0) * plane
	if cap(s.scratch) < n {
		s.scratch = make([]uint32, n)
	}
	return s.scratch[:n], nil
}

func (s *Spill) put(labels []uint32) error {
	if _, err := s.file.Write(bytesOf(labels)); err != nil {
		return fmt.Errorf("slabs: spilling labels: %w", err)
	}
	s.starts = append(s.starts, s.written)
	s.written += int64(len(labels))
	return nil
}

func (s *Spill) finish(m *Relabeling, _ []slab, _, _ int) error {
	s.m, s.scratch = m, nil
	return nil
}

// ReadLabels fills dst with the volume's labels from voxel on. It may run on
// several goroutines at once. It fails before [Label] has ended.
func (s *Spill) ReadLabels(dst []uint32, voxel int64) error {
	if s.m == nil {
		return errors.New("slabs: labels read back from a Spill before its labeling ended")
	}
	if voxel < 0 || voxel+int64(len(dst)) > s.voxels {
		return fmt.Errorf("slabs: labels %d..%d read back from a Spill of %d", voxel, voxel+int64(len(dst))-1, s.voxels)
	}
	if _, err := s.file.ReadAt(bytesOf(dst), 4*voxel); err != nil {
		return fmt.Errorf("slabs: reading back the spilled labels: %w", err)
	}
	for len(dst) > 0 {
		k := sort.Search(len(s.starts), func(i int) bool { return s.starts[i] > voxel }) - 1
		end := s.voxels
		if k+1 < len(s.starts) {
			end = s.starts[k+1]
		}
		part := dst[:min(int64(len(dst)), end-voxel)]
		if err := s.m.Map(k, part); err != nil {
			return err
		}
		dst, voxel = dst[len(part):], voxel+int64(len(part))
	}
	return nil
}

// Close closes the spill file, which frees its space.
func (s *Spill) Close() error { return s.file.Close() }

// bytesOf returns the memory of labels as bytes: the spill file holds
// labels in the machine's byte order, written and read back by the same
// process.
func bytesOf(labels []uint32) []byte {
	if len(labels) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(labels))), 4*len(labels))
}
