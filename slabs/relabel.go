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

// Apply rewrites slab k's local labels in place as the volume's labels,
// on up to threads goroutines (0: GOMAXPROCS).
func (m *Relabeling) Apply(k int, labels []uint32, threads int) error {
	if k < 0 || k >= len(m.offsets) {
		return fmt.Errorf("slabs: slab %d of %d", k, len(m.offsets))
	}
	end := uint32(len(m.final) - 1)
	if k+1 < len(m.offsets) {
		end = m.offsets[k+1]
	}
	local := m.final[m.offsets[k] : end+1] // local[l] for l in 1..count; local[0] unused
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	const grain = 1 << 16
	parts := (len(labels) + grain - 1) / grain
	var bad atomic.Bool
	parallel.Ranges(parts, threads, func(lo, hi int) {
		for i := lo * grain; i < min(hi*grain, len(labels)); i++ {
			if l := labels[i]; l != 0 {
				if int(l) >= len(local) {
					bad.Store(true)
					return
				}
				labels[i] = local[l]
			}
		}
	})
	if bad.Load() {
		return fmt.Errorf("slabs: slab %d holds a label above its count %d", k, len(local)-1)
	}
	return nil
}
