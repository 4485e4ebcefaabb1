// Package gridcc labels the connected components of rasters on the CPU.
//
// [Label] runs ECL-CC on a raster's implicit grid graph without building
// a CSR: binary and threshold rules on bit masks of the rows (package
// gridcc/grid), the multilabel rule on runs of equal values (package
// gridcc/runs). [LabelStreamed] labels a raster while its samples arrive.
package gridcc
