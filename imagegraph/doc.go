// Package imagegraph describes images and volumes as implicit grid graphs.
//
// A [Raster] holds typed [Samples], a [Rule] says which samples are
// foreground and which neighbours join, [Stencil] gives the neighbours of
// a connectivity, and [Labels] and [ComponentStats] hold what a labeling
// yields. The package is the data model alone, on the standard library:
// package imagegraph/gridcc labels rasters on the CPU.
package imagegraph
