// Package grid labels binary grid graphs and defines the grids that every
// gridcc labeler takes.
//
// A grid is a [GridShape] whose rows come as bit masks ([MaskRows]), keys
// ([KeyRows]) or runs of equal keys ([RunRows]). [LabelBinary] labels a
// binary grid at any connectivity, in parallel bands of rows, numbering
// components 1..N in order of first occurrence, the same for every thread
// count.
package grid
