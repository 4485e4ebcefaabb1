// Package graphio reads and writes graph files for connected-components
// labeling.
//
// Supported inputs are ECL-CC's binary CSR format (.egr), Matrix Market
// coordinate files (.mtx), edge lists (.txt, .csv, .tsv, .el, .edges) and
// DIMACS/PACE graphs (.gr). Every reader returns a valid, symmetric
// ecl.Graph together with the mapping from vertices back to the IDs used
// in the file (see LoadedGraph). ReadFile picks the reader from the
// extension (FormatFromPath), Read from a Format. Graphs can be written as
// .egr only (WriteEGR, WriteFile); per-vertex labels as "id label" text
// lines (WriteLabelsText).
//
// Readers stream their input and check headers before allocating, so a
// damaged or hostile file yields an error, never a panic or an allocation
// far beyond the input's size. Every error is a single line that starts
// with "formats: "; errors of text formats name the line
// ("formats: line 12: ..."), and ReadFile adds the path
// ("formats: PATH: line 12: ...").
package graphio
