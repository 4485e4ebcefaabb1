// Package tiff reads multi-page TIFF files (classic and BigTIFF) as
// volumes, a page per plane, decoding pages in parallel; a single 2D
// TIFF is an image, read by package imageio.
package tiff
