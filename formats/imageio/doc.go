// Package imageio decodes 2D images for labeling and reads folders of 2D
// slices as volumes.
//
// DecodeFile and Decode read PNG, JPEG, GIF, BMP, TIFF and WebP images,
// sniffing the format from the content and checking the header's size
// against imagegraph.MaxPixels and, where the compression allows a bound,
// against the file's size before decoding pixels. Stored values are kept:
// a JPEG's EXIF orientation is applied, a GIF gives its first frame on its
// logical screen, a WhiteIsZero TIFF keeps its samples, and a multi-page
// TIFF is refused as a volume (see package tiff). ReadSliceFolder stacks
// the images of a folder, sorted by name, into an imagegraph.Volume.
//
// PNG and TIFF decode the common cases faster (on two goroutines, or
// strips in parallel) and return exactly what image/png and
// golang.org/x/image/tiff return, errors included.
//
// Errors are one line and name the input: "formats: PATH: png: ...".
package imageio
