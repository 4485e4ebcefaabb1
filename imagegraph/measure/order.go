package measure

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cclabel/cclabel/internal/parallel"
)

// SizeOrder returns the numbering of components by decreasing size, ties
// broken by the smaller label (the first occurrence, for labels numbered
// by first occurrence). sizes[k-1] is label k's size. The result perm has
// len(sizes)+1 entries: perm[k] is label k's new label, and perm[0] is 0.
func SizeOrder(sizes []int64) []uint32 {
	order := make([]uint32, len(sizes)) // labels by decreasing size
	for i := range order {
		order[i] = uint32(i + 1)
	}
	slices.SortStableFunc(order, func(a, b uint32) int { return cmp.Compare(sizes[b-1], sizes[a-1]) })
	perm := make([]uint32, len(sizes)+1)
	for i, lab := range order {
		perm[lab] = uint32(i + 1)
	}
	return perm
}

// Relabel renumbers labels in place, label k becoming perm[k], with
// threads goroutines (0: GOMAXPROCS). It fails, changing nothing, when a
// label has no entry in perm or perm holds a value L cannot hold.
func Relabel[L Label](labels []L, perm []uint32, threads int) error {
	limit := uint64(^L(0))
	for k, v := range perm {
		if uint64(v) > limit {
			return fmt.Errorf("measure: label %d maps to %d, beyond the label type", k, v)
		}
	}
	// Check first, then write: a bad label leaves labels as they were.
	bad := make([]int, parallel.ClampThreads(threads, len(labels)))
	parallel.RangesIndexed(len(labels), threads, func(t, lo, hi int) {
		bad[t] = -1
		for i, lab := range labels[lo:hi] {
			if int(lab) >= len(perm) {
				bad[t] = lo + i
				return
			}
		}
	})
	for _, i := range bad {
		if i >= 0 {
			return &LabelError{Index: i, Label: uint32(labels[i]), Count: len(perm) - 1}
		}
	}
	parallel.Ranges(len(labels), threads, func(lo, hi int) {
		for i, lab := range labels[lo:hi] {
			labels[lo+i] = L(perm[lab])
		}
	})
	return nil
}

// Renumber carries the numbering perm (as [SizeOrder] returns it) over to
// t: components and their first voxels move to their new index, and
// contacts take their new labels, A < B, in increasing order again. It fails, changing nothing,
// when perm is not a permutation of 1..len(t.Components) with perm[0] 0.
func (t *Table) Renumber(perm []uint32) error {
	n := len(t.Components)
	if len(perm) != n+1 || perm[0] != 0 || t.First != nil && len(t.First) != n {
		return fmt.Errorf("measure: numbering of %d labels for %d components (%d first voxels)", len(perm)-1, n, len(t.First))
	}
	seen := make([]bool, n+1)
	for _, v := range perm[1:] {
		if v == 0 || int(v) > n || seen[v] {
			return fmt.Errorf("measure: numbering is not a permutation of 1..%d", n)
		}
		seen[v] = true
	}
	for _, c := range t.Contacts {
		if c.A == 0 || int(c.A) > n || c.B == 0 || int(c.B) > n {
			return fmt.Errorf("measure: contact %d-%d outside labels 1..%d", c.A, c.B, n)
		}
	}
	comps, first := make([]Component, n), slices.Clone(t.First)
	for k, c := range t.Components {
		comps[perm[k+1]-1] = c
		if first != nil {
			first[perm[k+1]-1] = t.First[k]
		}
	}
	t.Components, t.First = comps, first
	for i := range t.Contacts {
		c := &t.Contacts[i]
		c.A, c.B = perm[c.A], perm[c.B]
		if c.A > c.B {
			c.A, c.B = c.B, c.A
		}
	}
	SortContacts(t.Contacts)
	return nil
}
