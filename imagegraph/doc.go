// Package imagegraph turns images and volumes into implicit grid graphs.
//
// A Raster holds typed samples (x fastest, then y, then z). A Rule decides
// which samples are foreground and which neighbours connect: multilabel
// (equal nonzero values connect; the default), binary (any nonzero) or a
// threshold. A connectivity stencil (2D: 4 or 8; 3D: 6, 18 or 26) gives the
// neighbours. Grid combines the three into a graph whose neighbours are
// computed on the fly, with a CSR-shaped interface (Degree, Neighbors) and
// Materialize for the general graph path; Label runs ECL-CC on it without
// building any CSR: binary and threshold rules on bit masks of the rows
// (grid.LabelBinary), multilabel on runs of equal values (runs.LabelRuns),
// and multilabel rasters with a single foreground value as binary.
package imagegraph
