// Package cclabel labels the connected components of images, volumes and
// graphs on the best backend available: CUDA kernels on a GPU, the
// parallel Go implementation of ECL-CC on every CPU core, or its serial
// form.
//
// A Labeler owns that choice. Under BackendAuto it labels large inputs of
// the types the GPU kernels take on the GPU when one is usable (opening the
// CUDA context on first use and keeping it for the inputs after it), and
// everything else on the CPU; after a GPU error it warns once and stays on
// the CPU. Every backend gives the same labels: 1..N in order of first
// occurrence in memory order (x fastest), background 0.
//
// Rasters come from the readers under formats/ (or are built with
// imagegraph.NewRaster); graphs from formats/graphio or ecl.FromEdges.
// Statistics, size filters and outputs work on the returned labels
// (imagegraph.Labels, ecl.Result) and live in imagegraph, render and the
// format packages.
package cclabel
