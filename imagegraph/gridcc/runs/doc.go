// Package runs labels keyed (multilabel) grid graphs, whose neighbours join
// when their keys are equal and nonzero.
//
// [LabelRuns] labels a grid given as runs of equal keys, the path of
// multilabel rasters; [LabelGrid], the general reference, labels one given
// as keys, with a parent per pixel. Both label in parallel bands of rows,
// numbering components as package grid does.
package runs
