// Package tiffio reads TIFF parts golang.org/x/image/tiff does not expose, or
// reads slowly. It reads a TIFF file's header and chain of image file
// directories ([Pages], [Layout]), BigTIFF pages as classic files
// ([Classic]), pages decoded with strips or tiles in parallel ([DecodePage]:
// the image and errors that decoder gives), and 2-D slices stacked into a
// volume ([Stack]) for TIFF stacks and folders of slices.
package tiffio
