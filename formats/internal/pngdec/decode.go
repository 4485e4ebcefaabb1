package pngdec

import (
	"bytes"
	"image"
	"image/png"
)

// Decode decodes the PNG file held in data. The result and any error are
// those of png.Decode(bytes.NewReader(data)): files this package does not
// decode itself, and every file with an error, go to image/png.
func Decode(data []byte) (image.Image, error) {
	if img, err := decodeFast(data); err == nil {
		return img, nil
	}
	return png.Decode(bytes.NewReader(data))
}

// decodeFast decodes a well-formed non-interlaced PNG file; anything else
// is an error (errNotFast or one that wraps it).
func decodeFast(data []byte) (image.Image, error) {
	h, stream, err := parseFile(data)
	if err != nil {
		return nil, err
	}
	if h.interlaced {
		return nil, errNotFast
	}
	t := newTarget(h)
	if err := decodeRows(stream, t, h.height); err != nil {
		return nil, err
	}
	return t.finish(), nil
}
