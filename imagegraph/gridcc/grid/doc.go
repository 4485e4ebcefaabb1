// Package grid labels the connected components of implicit grid graphs,
// the rasters of images and volumes, without building adjacency lists:
// neighbours come from the connectivity stencil (4 or 8 in 2D, 6, 18 or 26
// in 3D), and ECL-CC's hooking of larger representatives under smaller
// ones runs over row runs instead of single pixels.
//
// This package defines the grids and the sources of their rows that every
// grid labeler takes: GridShape, bit masks (MaskRows), keys (KeyRows,
// GridKey) and runs of equal keys (RunRows, KeyRun). It holds the labelers
// of binary grids: LabelBinary8 and LabelBinary26 label bit-packed
// foreground masks at full connectivity with pair and bundle scans;
// LabelBinary covers 18 with LabelBinary8's row pairs in every plane, and
// 4 and 6 with row runs, on the same masks.
//
// The labelers of keyed (multilabel) grids are in package ecl/grid/runs:
// LabelRuns from runs of equal keys and LabelGrid, the general per-pixel
// reference, from keys. All of them share the band machinery of
// ecl/grid/internal/band: rows are split into bands labeled in parallel
// and joined across band borders; labels are 1..N in order of first
// occurrence (x fastest), identical for every thread count.
package grid
