package measure

// SizeOrder returns the numbering of components by decreasing size, ties
// broken by the smaller label (the first occurrence, for labels numbered
// by first occurrence). sizes[k-1] is label k's size. The result perm has
// len(sizes)+1 entries: perm[k] is label k's new label, and perm[0] is 0.
func SizeOrder(sizes []int64) []uint32 {
	return nil
}

// Relabel renumbers labels in place, label k becoming perm[k], with
// threads goroutines (0: GOMAXPROCS). It fails, changing nothing, when a
// label has no entry in perm or perm maps to a value L cannot hold.
func Relabel[L Label](labels []L, perm []uint32, threads int) error {
	return errUnimplemented
}

// Renumber carries the numbering perm (as [SizeOrder] returns it) over to
// t: components move to their new index, and contacts take their new
// labels, A < B, in increasing order again. It fails, changing nothing,
// when perm is not a permutation of 1..len(t.Components).
func (t *Table) Renumber(perm []uint32) error {
	return errUnimplemented
}
