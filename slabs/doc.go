// Package slabs labels a volume one z-slab at a time and joins the slabs'
// labels into the labels of the whole volume, bit for bit: components
// numbered 1..N by first occurrence (x fastest, then y, then z),
// background 0.
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
// voxel, which is the whole volume's numbering.
//
// A Joiner keeps only the last plane of the previous slab (its samples and
// provisional labels) and the union-find, so a volume larger than memory
// can be labeled slab by slab and relabeled in a second pass
// (Relabeling.Apply); slabs held in memory are relabeled in place.
package slabs
