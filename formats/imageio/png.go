package imageio

import (
	"bytes"
	"image"
	"image/png"
)

// decodePNG decodes the PNG file held in data, faster than image/png. The
// result and any error are those of png.Decode(bytes.NewReader(data)).
//
// For a non-interlaced image whose chunks, checksums and compressed
// stream are all well formed it inflates the pixel data with
// github.com/klauspost/compress/flate on one goroutine while another
// unfilters the rows straight into the destination image (through a
// small ring of buffers, so memory beyond the image stays bounded), and
// checks the zlib checksum on the unfiltering side. Anything else (Adam7
// interlacing, a damaged or truncated file, trailing data in the
// compressed stream, ...) is handed to image/png, so the image type, the
// palette and every error are that decoder's.
func decodePNG(data []byte) (image.Image, error) {
	if img, err := decodePNGFast(data); err == nil {
		return img, nil
	}
	return png.Decode(bytes.NewReader(data))
}

// decodeFast decodes a well-formed non-interlaced PNG file; anything else
// is an error (errNotFast or one that wraps it).
func decodePNGFast(data []byte) (image.Image, error) {
	h, stream, err := parsePNGFile(data)
	if err != nil {
		return nil, err
	}
	if h.interlaced {
		return nil, errPNGNotFast
	}
	t := newPNGTarget(h)
	if err := decodeRows(stream, t, h.height); err != nil {
		return nil, err
	}
	return t.finish(), nil
}
