// Package runs labels the connected components of keyed (multilabel) grids
// of package ecl/grid, whose neighbouring pixels join when their keys are
// equal and nonzero, by ECL-CC on runs of equal keys.
//
// LabelRuns labels a grid given as runs of equal keys (grid.RunRows): the
// path multilabel rasters take. LabelGrid labels any grid given as keys
// (grid.KeyRows) at every connectivity, with a parent per pixel; it is the
// general reference that the other labelers are tested and benchmarked
// against. Both split the rows into bands labeled in parallel and joined
// across band borders (ecl/grid/internal/band); labels are 1..N in order
// of first occurrence (x fastest), identical for every thread count.
package runs
