// Package pngdec decodes PNG images faster than image/png and returns
// exactly what image/png returns.
//
// Decode takes a whole file in memory. For a non-interlaced image whose
// chunks, checksums and compressed stream are all well formed it inflates
// the pixel data with github.com/klauspost/compress/flate on one goroutine
// while another unfilters the rows straight into the destination image
// (through a small ring of buffers, so memory beyond the image stays
// bounded), and checks the zlib checksum on the unfiltering side. Anything
// else (Adam7 interlacing, a damaged or truncated file, trailing data in
// the compressed stream, ...) is handed to image/png, so the result, the
// image type, the palette and every error are those of
// png.Decode(bytes.NewReader(data)).
package pngdec
