package slabs

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/cclabel/cclabel/internal/parallel"
)

// Relabeling maps the slabs' local labels to the whole volume's.
type Relabeling struct {
	// final[p] is the volume's label of provisional label p.
	final []uint32
	// offsets[k] is slab k's first provisional label minus one.
	offsets []uint32
	// Count is the number of components in the volume.
	Count int
}

// Slabs returns how many slabs the relabeling covers.
func (m *Relabeling) Slabs() int { return len(m.offsets) }

// Identity reports whether slab k's local labels are already the volume's.
// The first slab's are, unless two of its components meet in a later slab.
// When it reports true, [Relabeling.Apply] would change nothing in labels
// that hold no label above the slab's count.
func (m *Relabeling) Identity(k int) bool {
	if k < 0 || k >= len(m.offsets) {
		return false
	}
	end := uint32(len(m.final) - 1)
	if k+1 < len(m.offsets) {
		end = m.offsets[k+1]
	}
	first := m.offsets[k]
	for p := first + 1; p <= end; p++ {
		if m.final[p] != p-first {
			return false
		}
	}
	return true
}

// Table returns slab k's map of local labels to the volume's: table[l] is
// local label l's label in the volume, for l from 0 (the background, 0) to
// the slab's count.
func (m *Relabeling) Table(k int) ([]uint32, error) {
	if k < 0 || k >= len(m.offsets) {
		return nil, fmt.Errorf("slabs: slab %d of %d", k, len(m.offsets))
	}
	end := uint32(len(m.final) - 1)
	if k+1 < len(m.offsets) {
		end = m.offsets[k+1]
	}
	table := make([]uint32, end-m.offsets[k]+1)
	copy(table[1:], m.final[m.offsets[k]+1:end+1])
	return table, nil
}

// Apply rewrites slab k's local labels in place as the volume's labels. It
// runs on up to threads goroutines (0: GOMAXPROCS).
func (m *Relabeling) Apply(k int, labels []uint32, threads int) error {
	// table[l] is local label l's final label, table[0] = 0 for the
	// background: one load per voxel and no branch on random masks.
	table, err := m.Table(k)
	if err != nil {
		return err
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	const grain = 1 << 16
	parts := (len(labels) + grain - 1) / grain
	var bad atomic.Bool
	parallel.Ranges(parts, threads, func(lo, hi int) {
		chunk := labels[lo*grain : min(hi*grain, len(labels))]
		top := uint32(len(table) - 1)
		for i, l := range chunk {
			if l > top {
				bad.Store(true)
				return
			}
			chunk[i] = table[l]
		}
	})
	if bad.Load() {
		return fmt.Errorf("slabs: slab %d holds a label above its count %d", k, len(table)-1)
	}
	return nil
}

// Map rewrites local labels of slab k as the volume's labels. labels may be
// any part of the slab. Unlike [Relabeling.Apply] it builds no table: it
// serves short runs of labels, such as a writer's chunks.
func (m *Relabeling) Map(k int, labels []uint32) error {
	if k < 0 || k >= len(m.offsets) {
		return fmt.Errorf("slabs: slab %d of %d", k, len(m.offsets))
	}
	end := uint32(len(m.final) - 1)
	if k+1 < len(m.offsets) {
		end = m.offsets[k+1]
	}
	off := m.offsets[k]
	top := end - off
	for i, l := range labels {
		if l != 0 {
			if l > top {
				return fmt.Errorf("slabs: slab %d holds a label above its count %d", k, top)
			}
			labels[i] = m.final[off+l]
		}
	}
	return nil
}
