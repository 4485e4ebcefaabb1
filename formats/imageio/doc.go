// Package imageio decodes 2D images (PNG, JPEG, GIF, BMP, TIFF, WebP),
// sniffed from their content, with their stored values, and reads folders
// of 2D slices and multi-page TIFF files (classic and BigTIFF) as volumes.
// PNG and TIFF decode in parallel, yet give exactly the images and errors
// of image/png and golang.org/x/image/tiff.
package imageio
