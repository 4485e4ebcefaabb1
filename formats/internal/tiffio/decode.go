package tiffio

import (
	"bytes"
	"encoding/binary"
	"image"
	"sync"

	xtiff "golang.org/x/image/tiff"
)

// minSplitPixels is the smallest page split into bands: below it the
// bands' set-up and the final copy cost more than they save.
const minSplitPixels = 1 << 20

// DecodePage decodes the page at IFD offset ifd of the classic TIFF data. It
// decodes 8 and 16-bit grey pages itself, strips or tiles in parallel, other
// pages of at least minSplitPixels pixels in bands decoded by
// golang.org/x/image/tiff in parallel, on up to threads goroutines (0:
// GOMAXPROCS).
//
// Grey pages (BlackIsZero or WhiteIsZero; uncompressed, LZW, Deflate or
// PackBits; with or without the horizontal predictor; strips or tiles) have
// their rows copied whole. Other pages are cut into horizontal bands of whole
// strips, tile rows or (for one uncompressed strip of single-sample pixels)
// rows; each band is presented to the decoder as a page of its own (an IFD
// with the band's height and its strips, appended to a virtual copy of the
// file) and the bands are put together. Anything else, and any page where
// either way meets damaged data, is decoded whole by golang.org/x/image/tiff.
// The image and any error are those of [xtiff.Decode]
// (golang.org/x/image/tiff) of the file with its first-IFD offset set to ifd.
func DecodePage(data []byte, ifd uint32, threads int) (image.Image, error) {
	if img, err := decodeGray(data, ifd, threads); err == nil {
		return img, nil
	}
	if img, err := decodeBands(data, ifd, threads, minSplitPixels); err == nil {
		return img, nil
	}
	return xtiff.Decode(newPageFile(data, ifd, nil))
}

// Decode decodes the first page of the TIFF file data as [DecodePage] does.
// It returns what [xtiff.Decode] (golang.org/x/image/tiff) returns for the
// file.
func Decode(data []byte, threads int) (image.Image, error) {
	if len(data) < 8 || (string(data[:4]) != "II*\x00" && string(data[:4]) != "MM\x00*") {
		return xtiff.Decode(bytes.NewReader(data))
	}
	return DecodePage(data, orderOf(data).Uint32(data[4:]), threads)
}

// orderOf returns the byte order of the TIFF header of data (little-endian
// unless it starts with "MM").
func orderOf(data []byte) binary.ByteOrder {
	if len(data) >= 2 && string(data[:2]) == "MM" {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// decodeBands cuts the page into bands and decodes them in parallel; a
// page of fewer than minPixels pixels, one it cannot cut in two or more
// bands, and a band that fails give errNoSplit.
func decodeBands(data []byte, ifdOff uint32, threads, minPixels int) (image.Image, error) {
	if len(data) < 8 || (string(data[:4]) != "II*\x00" && string(data[:4]) != "MM\x00*") || len(data) > 1<<31 {
		return nil, errNoSplit
	}
	d, err := readIFD(data, orderOf(data), ifdOff)
	if err != nil {
		return nil, err
	}
	bands, err := planBands(data, d, threads, minPixels)
	if err != nil {
		return nil, err
	}
	if len(bands) < 2 {
		return nil, errNoSplit
	}
	imgs := make([]image.Image, len(bands))
	errs := make([]error, len(bands))
	var wg sync.WaitGroup
	for i, b := range bands {
		wg.Go(func() {
			tail := d.encode(uint32(tailOffset(data)), b.replace)
			imgs[i], errs[i] = xtiff.Decode(newPageFile(data, uint32(tailOffset(data)), tail))
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, errNoSplit
		}
	}
	return assemble(imgs, bands)
}

// band is a horizontal band of a page: its first row and height, and the
// IFD values that make it a page of its own.
type band struct {
	y, height int
	replace   map[uint16][]uint32
}
