// Package formats reads and writes graph files and images for
// connected-components labeling.
//
// Images: DecodeImageFile and DecodeImage read 2D PNG, JPEG, GIF, BMP,
// TIFF and WebP images, sniffing the format from the content and checking
// the header's size before decoding pixels; TIFFPageCount counts the pages
// of a TIFF. Labels come out as colour images (LabelColor, ColorLabels,
// Overlay, written with WritePNG), as 16-bit PNGs (WriteLabelsPNG16) or as
// NumPy arrays (WriteNPYLabels).
//
// Graphs: supported inputs are ECL-CC's binary CSR format (.egr), Matrix
// Market coordinate files (.mtx), edge lists (.txt, .csv, .tsv, .el,
// .edges) and DIMACS/PACE graphs (.gr). Every reader returns a valid,
// symmetric ecl.Graph together with the mapping from vertices back to the
// IDs used in the file (see LoadedGraph). Graphs can be written as .egr
// only.
//
// Graph readers stream their input and check headers before allocating,
// so a damaged or hostile file yields an error, never a panic or an
// allocation far beyond the input's size. Image decoders read the whole
// file (small next to its pixels) and check the header's size against
// imagegraph.MaxPixels and, where the compression allows a bound, against
// the file's size before decoding. Every error is a single line that
// starts with "formats: "; errors of text formats name the line
// ("formats: line 12: ..."), and ReadGraphFile and DecodeImageFile add the
// path ("formats: PATH: line 12: ...", "formats: PATH: png: ...").
package formats
