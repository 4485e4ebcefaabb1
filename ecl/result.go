package ecl

import (
	"sync/atomic"

	"github.com/cclabel/cclabel/internal/parallel"
)

// Result holds the components found by a connected-components run.
type Result struct {
	// Parent holds each vertex's representative: the smallest vertex ID
	// of its component.
	Parent []int32
	// Count is the number of components.
	Count int
}

// Labels returns sequential component labels, numbered by first occurrence.
//
// Label 1 is the component of vertex 0, then 2, 3, ... in order of each
// component's first vertex, so labels run 1..Count. It uses up to threads
// goroutines (0 means GOMAXPROCS).
func (r *Result) Labels(threads int) []uint32 {
	labels := make([]uint32, len(r.Parent))
	r.LabelsInto(labels, threads)
	return labels
}

// LabelsInto writes the labels of [Result.Labels] into dst.
//
// dst must have one entry per vertex.
func (r *Result) LabelsInto(dst []uint32, threads int) {
	n := len(r.Parent)
	parent := r.Parent
	dst = dst[:n]
	threads = parallel.ClampThreads(threads, (n+parallel.DynamicChunk-1)/parallel.DynamicChunk)
	// Pass 1: count roots per range. Pass 2: number roots. Pass 3: copy the
	// root's label to every vertex; roots precede their members, but other
	// ranges may not be done with pass 2, hence the separate pass.
	var roots [parallel.MaxThreads]uint32
	parallel.RangesIndexed(n, threads, func(t, lo, hi int) {
		c := uint32(0)
		for v := lo; v < hi; v++ {
			if parent[v] == int32(v) {
				c++
			}
		}
		roots[t] = c
	})
	next := uint32(1)
	for t := range threads {
		c := roots[t]
		roots[t] = next
		next += c
	}
	parallel.RangesIndexed(n, threads, func(t, lo, hi int) {
		label := roots[t]
		for v := lo; v < hi; v++ {
			if parent[v] == int32(v) {
				dst[v] = label
				label++
			}
		}
	})
	parallel.Ranges(n, threads, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if p := parent[v]; p != int32(v) {
				dst[v] = dst[p]
			}
		}
	})
}

// LabelsAndLargest returns the labels of [Result.Labels] and the size of
// the largest component, on threads goroutines. It counts the
// members of each component in the label slice, at its representative,
// before writing the labels there, so that a graph of many components
// needs no array of sizes besides the labels.
func (r *Result) LabelsAndLargest(threads int) ([]uint32, int64) {
	parent := r.Parent
	labels := make([]uint32, len(parent))
	if len(parent) == 0 {
		return labels, 0
	}
	// labels[r] counts the members of r's component other than r. A
	// goroutine adds a run of members of one component at once, so that a
	// large component's counter is not fought over member by member.
	parallel.Ranges(len(parent), threads, func(lo, hi int) {
		last, run := int32(-1), uint32(0)
		for v := lo; v < hi; v++ {
			p := parent[v]
			if p == int32(v) {
				continue
			}
			if p != last {
				if run > 0 {
					atomic.AddUint32(&labels[last], run)
				}
				last, run = p, 0
			}
			run++
		}
		if run > 0 {
			atomic.AddUint32(&labels[last], run)
		}
	})
	largest := int64(parallel.Max(labels)) + 1
	r.LabelsInto(labels, threads)
	return labels, largest
}

// ComponentSizes returns the number of vertices per label.
//
// Index 0 counts label 0 (unlabeled vertices) and index k counts label k,
// for k <= count. Labels above count are ignored.
func ComponentSizes(labels []uint32, count int) []int64 {
	sizes := make([]int64, count+1)
	for _, l := range labels {
		if int(l) <= count {
			sizes[l]++
		}
	}
	return sizes
}

// Largest returns the label and size of the largest component.
//
// Among equals it returns the first; with no components it returns 0, 0.
// sizes is indexed by label, as [ComponentSizes] returns it.
func Largest(sizes []int64) (label int, size int64) {
	for l := 1; l < len(sizes); l++ {
		if sizes[l] > size {
			label, size = l, sizes[l]
		}
	}
	return label, size
}

// NewResult wraps representatives computed elsewhere as a [Result].
//
// The representatives come from another backend; NewResult counts the
// components with up to threads goroutines.
func NewResult(parent []int32, threads int) *Result {
	return &Result{Parent: parent, Count: countRoots(parent, threads)}
}
