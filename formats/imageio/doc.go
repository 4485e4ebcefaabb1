// Package imageio decodes 2D images and reads folders of 2D slices as
// volumes. Images (PNG, JPEG, GIF, BMP, TIFF, WebP) are sniffed from their
// content and keep their stored values. PNG and TIFF decode in parallel, yet
// give exactly the images and errors of image/png and
// golang.org/x/image/tiff. Multi-page TIFF files (classic and BigTIFF) read
// as volumes, a page per plane.
package imageio
