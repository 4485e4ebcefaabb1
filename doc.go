// Package cclabel labels connected components of images, volumes and graphs
// on the best backend available: CUDA kernels on a GPU, ECL-CC in parallel
// Go on every CPU core, or its serial form.
//
// A [Labeler] owns that choice; every backend gives the same labels, 1..N
// in order of first occurrence in memory order (x fastest), background 0.
// Rasters come from package formats, graphs from formats/graphio or
// [ecl.FromEdges], and package job runs whole commands.
package cclabel
