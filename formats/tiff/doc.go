// Package tiff reads multi-page TIFF files as volumes: PageCount counts
// the pages (classic TIFF and BigTIFF) from the chain of image file
// directories, and ReadStackFile reads every page as a plane of an
// imagegraph.Volume (8 and 16-bit grey, paletted or colour pages of one
// size; compression as golang.org/x/image/tiff decodes it, with the
// samples that decoder gives, pages decoded in parallel through
// formats/internal/tiffio). BigTIFF stacks (past 4 GiB) are read page
// by page, each page converted to a classic TIFF of its own
// (tiffio.Classic) for that decoder. A single 2D TIFF is decoded by package
// imageio.
//
// All page headers are checked before the volume is allocated. Errors are
// one line: "formats: tiff: ..." from PageCount, "formats: PATH: tiff: ..."
// from ReadStackFile.
package tiff
