// Package tiffstrips decodes a page of a classic TIFF file faster than
// golang.org/x/image/tiff, which reads a page's strips or tiles one after
// the other and converts every pixel through a bit reader, on one
// goroutine, and returns exactly what that decoder returns.
//
// 8 and 16-bit grey pages (BlackIsZero or WhiteIsZero; uncompressed, LZW,
// Deflate or PackBits; with or without the horizontal predictor; strips
// or tiles) are decoded here, strips or tiles in parallel, rows copied
// whole. Other large pages are cut into horizontal bands of whole strips,
// tile rows or (for one uncompressed strip of single-sample pixels) rows;
// each band is presented to golang.org/x/image/tiff as a page of its own
// (an IFD with the band's height and its strips, appended to a virtual
// copy of the file) and the bands are decoded in parallel and put
// together. Anything else, and any page where either way meets damaged
// data, is decoded whole by golang.org/x/image/tiff, so the image and
// every error are that decoder's.
package tiffstrips
