package slabs

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// MaxProvisional is the most provisional labels [Label] and [Join] take. The
// provisional labels are the sum of the slabs' counts.
const MaxProvisional = math.MaxUint32 - 1

// joiner joins slabs labeled in order, from z = 0 up. Add each slab's
// local labels, then Finish.
//
// Each slab (whole planes, any thickness) is labeled on its own, 1..k by
// first occurrence within the slab. Its labels become provisional labels
// by adding the count of the slabs before it, so provisional labels are
// ordered by slab, then by first occurrence within the slab. At the seam
// between two slabs the two planes that meet there are labeled together
// (the same rule and connectivity as the slabs): every edge across the
// seam lies in that two-plane grid, so joining the provisional labels of
// the voxels in each of its components joins exactly the pieces the
// whole volume's labeling joins. A union-find over provisional labels
// keeps the smallest as each set's root; numbering the roots in
// ascending order then gives every component the rank of its first
// voxel, which is the whole volume's numbering: components numbered
// 1..N by first occurrence (x fastest, then y, then z), background 0.
//
// A joiner keeps only the last plane of the previous slab (its samples and
// provisional labels) and the union-find, so a volume larger than memory
// can be labeled slab by slab and relabeled in a second pass
// ([Relabeling.Map]); slabs held in memory are relabeled in place
// ([Relabeling.Apply]).
type joiner struct {
	width, height int
	threads       int // the goroutines that join a seam (0: GOMAXPROCS)
	label         LabelFunc
	// parent is the union-find over provisional labels (index 0 unused):
	// a root is the smallest label of its set.
	parent []uint32
	// offsets[k] is the count of the slabs before slab k.
	offsets []uint32
	// last is the previous slab's last plane: its provisional labels.
	last []uint32
	// seam holds the previous slab's last plane's samples (plane 0) and
	// the next slab's first (plane 1); seamLabels its labels.
	seam       *seamRaster
	seamLabels []uint32
	// reps[s] is a provisional label of seam component s: the one the
	// goroutine that met the component first took.
	reps []uint32
	// done is the Relabeling of Finish; failed, the error that stopped
	// an Add (the joiner takes no more slabs after either).
	done   *Relabeling
	failed error
}

// newJoiner returns a joiner for a volume of planes width x height whose
// seams label calls (with the volume's rule and connectivity) and threads
// goroutines join (0: GOMAXPROCS). Two planes (a seam) must fit a raster:
// width*height*2 at most imagegraph.MaxPixels.
func newJoiner(width, height, threads int, label LabelFunc) (*joiner, error) {
	if _, err := imagegraph.PixelCount(width, height, 2); err != nil {
		return nil, fmt.Errorf("slabs: two planes of a seam: %w", err)
	}
	if label == nil {
		return nil, fmt.Errorf("slabs: no LabelFunc")
	}
	return &joiner{width: width, height: height, threads: threads, label: label, parent: []uint32{0}}, nil
}

// Slabs returns how many slabs were added.
func (j *joiner) Slabs() int { return len(j.offsets) }

// Add records the next slab: its samples r and its count labels. r holds
// whole planes of the volume's width and height, and labels come from the
// [LabelFunc]. The seam with the previous slab is labeled and joined here;
// Add keeps only the slab's last plane, so r and labels may be reused
// afterwards. Labels above count (a corrupt chunk file, say) are an error,
// and after any error the joiner takes no more slabs.
func (j *joiner) Add(r *imagegraph.Raster, labels []uint32, count int) error {
	switch {
	case j.done != nil:
		return fmt.Errorf("slabs: Add after Finish")
	case j.failed != nil:
		return fmt.Errorf("slabs: Add after a failed Add: %w", j.failed)
	}
	if r.Width != j.width || r.Height != j.height || len(labels) != r.Len() {
		return fmt.Errorf("slabs: a %dx%dx%d slab with %d labels in a volume of %dx%d planes",
			r.Width, r.Height, r.Depth, len(labels), j.width, j.height)
	}
	if count < 0 || uint64(len(j.parent)-1)+uint64(count) > MaxProvisional {
		return fmt.Errorf("slabs: more than %d labels over the slabs", uint64(MaxProvisional))
	}
	plane := j.width * j.height
	// The planes Add reads must hold labels of the slab only.
	for _, part := range [][]uint32{labels[:plane], labels[len(labels)-plane:]} {
		if m := parallel.Max(part); m > uint32(count) {
			return fmt.Errorf("slabs: a slab of %d labels holds label %d", count, m)
		}
	}
	if j.seam != nil && r.Kind != j.seam.r.Kind {
		return fmt.Errorf("slabs: a slab of %v samples after slabs of %v", r.Kind, j.seam.r.Kind)
	}
	// From here on the joiner changes: a failure leaves it unusable.
	if err := j.add(r, labels, count); err != nil {
		j.failed = err
		return err
	}
	return nil
}

// add is Add past its checks.
func (j *joiner) add(r *imagegraph.Raster, labels []uint32, count int) error {
	offset := uint32(len(j.parent) - 1)
	plane := j.width * j.height
	for i := range count {
		j.parent = append(j.parent, offset+uint32(i)+1)
	}
	if len(j.offsets) > 0 {
		if err := j.seam.setPlane(1, r, 0); err != nil {
			return err
		}
		if err := j.join(labels[:plane], offset); err != nil {
			return err
		}
	} else {
		seam, err := newSeamRaster(j.width, j.height, r.Kind)
		if err != nil {
			return err
		}
		j.seam, j.last, j.seamLabels = seam, make([]uint32, plane), make([]uint32, 2*plane)
	}
	j.offsets = append(j.offsets, offset)
	// Keep the last plane for the next seam.
	if err := j.seam.setPlane(0, r, r.Depth-1); err != nil {
		return err
	}
	last := labels[len(labels)-plane:]
	parallel.Ranges(len(last)/grain+1, j.threads, func(lo, hi int) {
		lo, hi = lo*grain, min(hi*grain, len(last))
		for i, l := range last[lo:hi] {
			if l != 0 {
				l += offset
			}
			j.last[lo+i] = l
		}
	})
	return nil
}

// grain is how many voxels of a plane one goroutine of a seam's joining
// takes at a time, at least.
const grain = 1 << 16

// join labels the seam between the previous slab's last plane and the
// new slab's first plane (first, local labels; offset, the new slab's)
// and joins the provisional labels in each of its components, on
// j.threads goroutines.
func (j *joiner) join(first []uint32, offset uint32) error {
	count, err := j.label(j.seam.r, j.seamLabels)
	if err != nil {
		return fmt.Errorf("slabs: a seam: %w", err)
	}
	if cap(j.reps) < count+1 {
		j.reps = make([]uint32, count+1)
	}
	reps := j.reps[:count+1]
	clear(reps)
	plane := len(first)
	var bad, past atomic.Bool
	parallel.Ranges(len(j.seamLabels)/grain+1, j.threads, func(lo, hi int) {
		lo, hi = lo*grain, min(hi*grain, len(j.seamLabels))
		var lastR, lastP uint32 // the pair joined last: runs of voxels repeat it
		for i, s := range j.seamLabels[lo:hi] {
			if s == 0 {
				continue
			}
			if s > uint32(count) {
				past.Store(true)
				return
			}
			var p uint32
			if i += lo; i < plane { // i indexes the seam
				p = j.last[i]
			} else if l := first[i-plane]; l != 0 {
				p = l + offset
			}
			if p == 0 {
				bad.Store(true)
				return
			}
			r := atomic.LoadUint32(&reps[s])
			if r == 0 {
				if atomic.CompareAndSwapUint32(&reps[s], 0, p) {
					continue
				}
				r = atomic.LoadUint32(&reps[s])
			}
			if r != p && (r != lastR || p != lastP) {
				j.union(r, p)
				lastR, lastP = r, p
			}
		}
	})
	switch {
	case past.Load():
		return fmt.Errorf("slabs: a seam of %d labels holds a larger one", count)
	case bad.Load():
		return fmt.Errorf("slabs: the seam labels a voxel that a slab left as background")
	}
	return nil
}

// find returns the root of a's set, halving the path. It may run beside
// other finds and unions: every parent is a smaller label of its child's
// set (union hooks a root under a smaller root, find stores a grandparent),
// so every value it reads or writes is in a's set.
func (j *joiner) find(a uint32) uint32 {
	p := j.parent
	for {
		b := atomic.LoadUint32(&p[a])
		if b == a {
			return a
		}
		c := atomic.LoadUint32(&p[b])
		if c != b {
			atomic.StoreUint32(&p[a], c)
		}
		a = c
	}
}

// union joins the sets of a and b under the smaller root. It may run
// beside other finds and unions: a root is hooked under a smaller root
// only while it is still a root, so every set's root stays its smallest
// label.
func (j *joiner) union(a, b uint32) {
	for {
		a, b = j.find(a), j.find(b)
		switch {
		case a == b:
			return
		case b < a:
			a, b = b, a
		}
		if atomic.CompareAndSwapUint32(&j.parent[b], b, a) {
			return
		}
	}
}

// Finish resolves the joins and returns the slabs' [Relabeling]. The
// [Relabeling] maps every slab's local labels to the volume's. The joiner
// takes no more slabs; a second call returns the same [Relabeling].
func (j *joiner) Finish() *Relabeling {
	if j.done != nil {
		return j.done
	}
	// Every parent is at most its child (union hooks a root under a
	// smaller root, find stores a grandparent), so in ascending order a
	// label's parent is numbered before it: the union-find becomes the map
	// in place.
	final := j.parent
	count := uint32(0)
	for p := 1; p < len(final); p++ {
		if q := final[p]; q == uint32(p) {
			count++
			final[p] = count
		} else {
			final[p] = final[q]
		}
	}
	j.parent = nil
	j.done = &Relabeling{final: final, offsets: j.offsets, Count: int(count)}
	return j.done
}
