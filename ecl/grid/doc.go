// Package grid labels the connected components of implicit grid graphs,
// the rasters of images and volumes, without building adjacency lists:
// neighbours come from the connectivity stencil (4 or 8 in 2D, 6, 18 or 26
// in 3D), and ECL-CC's hooking of larger representatives under smaller
// ones runs over row runs instead of single pixels.
//
// LabelBinary8 and LabelBinary26 label bit-packed foreground masks (rows
// of MaskRows) at full connectivity with pair and bundle scans;
// LabelBinary covers 4, 6 and 18 with row runs on the same masks.
// LabelRuns labels multilabel rasters from runs of equal keys (RunRows),
// and LabelGrid any keyed grid (KeyRows) at every connectivity. Rows are
// split into bands labeled in parallel and joined across band borders;
// labels are 1..N in order of first occurrence (x fastest), identical for
// every thread count.
package grid
