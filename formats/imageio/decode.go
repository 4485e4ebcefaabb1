package imageio

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/formats/internal/tiffio"
	"github.com/cclabel/cclabel/imagegraph"
)

// supportedImages lists the image formats Decode knows, for error
// messages.
const supportedImages = "PNG, JPEG, GIF, BMP, TIFF, WebP"

// DecodeFile reads a 2D image file, sniffing the format from the content. It
// reads PNG, JPEG, GIF, BMP, TIFF and WebP, whatever the extension. See
// [Decode] for what it returns. Errors name the file: "formats: PATH: ...".
func DecodeFile(path string) (image.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	return decodeImage(data, path, imagegraph.MaxPixels)
}

// Decode is [DecodeFile] for a stream such as stdin. name is used in errors
// ("formats: NAME: ...").
//
// The header is checked before any pixels are decoded: an image with a zero
// side, with more than [imagegraph.MaxPixels] pixels or, for PNG, GIF and
// BMP, with more pixels than a file of its size can encode is rejected, so a
// lying PNG, GIF or BMP header does not cause a large allocation. JPEG, TIFF
// and WebP admit no such bound; for them a lying header can make the decoder
// allocate up to the pixel limit before it finds the data missing.
//
// The decoder's image type is kept (8-bit grey as [*image.Gray], 16-bit grey
// as [*image.Gray16], palette images as [*image.Paletted], and so on), with
// these exceptions: a JPEG with an EXIF orientation other than 1 is turned
// upright (greyscale stays [*image.Gray], colour becomes [*image.RGBA]); a
// GIF yields its first frame, placed on the logical screen when it does not
// cover it; and a WhiteIsZero TIFF keeps its stored sample values (the
// decoder's inversion is undone), as tifffile reads them. A multi-page TIFF
// is an error: it is a volume.
func Decode(r io.Reader, name string) (image.Image, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, decodeError(name, "", fmt.Errorf("read: %w", err))
	}
	return decodeImage(data, name, imagegraph.MaxPixels)
}

// imageFormat is one image format Decode supports.
type imageFormat struct {
	// name is the lower-case name decoders use in their messages.
	name string
	// decode decodes the whole file held in data.
	decode       func(data []byte) (image.Image, error)
	decodeConfig func(io.Reader) (image.Config, error)
	// maxPixelsPerByte bounds the pixels a valid file can encode per byte
	// of file, or is 0 where the format allows no useful bound.
	maxPixelsPerByte int64
}

// Pixels per file byte that a valid file can encode at most. PNG: deflate
// expands at most 1032-fold (258 bytes from a 2-bit length/distance pair)
// and a pixel takes at least one bit. GIF: an LZW code of w bits yields at
// most 2^w bytes and codes are at least 3 bits wide; 4096 pixels per byte
// is a generous round bound. BMP: uncompressed, at least one bit a pixel.
// JPEG (progressive end-of-band runs), TIFF (strips may share data) and
// WebP (zero-bit Huffman codes) allow no useful bound; WebP sides are
// limited to 16383 by the format.
const (
	pngMaxPixelsPerByte = 8 * 1032
	gifMaxPixelsPerByte = 4096
	bmpMaxPixelsPerByte = 8
)

// sniffImage identifies the image format from the first bytes of data.
func sniffImage(data []byte) (imageFormat, error) {
	has := func(prefix string) bool { return bytes.HasPrefix(data, []byte(prefix)) }
	switch {
	case has("\x89PNG\r\n\x1a\n"):
		// decodePNG returns what image/png returns, faster.
		return imageFormat{"png", decodePNG, png.DecodeConfig, pngMaxPixelsPerByte}, nil
	case has("\xff\xd8"):
		return imageFormat{"jpeg", fromReader(jpeg.Decode), jpeg.DecodeConfig, 0}, nil
	case has("GIF87a"), has("GIF89a"):
		return imageFormat{"gif", fromReader(gif.Decode), gif.DecodeConfig, gifMaxPixelsPerByte}, nil
	case has("BM"):
		return imageFormat{"bmp", fromReader(bmp.Decode), bmp.DecodeConfig, bmpMaxPixelsPerByte}, nil
	case has("II*\x00"), has("MM\x00*"):
		// tiffio returns what x/image/tiff returns, faster.
		return imageFormat{"tiff", func(data []byte) (image.Image, error) { return tiffio.Decode(data, 0) }, tiff.DecodeConfig, 0}, nil
	case has("II+\x00"), has("MM\x00+"):
		return imageFormat{}, fileio.Unsupportedf("tiff: BigTIFF is not supported (save as classic TIFF)")
	case len(data) >= 16 && has("RIFF") && string(data[8:15]) == "WEBPVP8":
		return imageFormat{"webp", fromReader(webp.Decode), webp.DecodeConfig, 0}, nil
	}
	return imageFormat{}, fileio.Unsupportedf("unknown image format (supported: %s)", supportedImages)
}

// fromReader adapts a decoder of a stream to one of a file in memory.
func fromReader(decode func(io.Reader) (image.Image, error)) func([]byte) (image.Image, error) {
	return func(data []byte) (image.Image, error) { return decode(bytes.NewReader(data)) }
}

// decodeImage decodes the image file held in data, admitting at most
// maxPixels pixels; name is for errors.
func decodeImage(data []byte, name string, maxPixels int) (image.Image, error) {
	f, err := sniffImage(data)
	if err != nil {
		return nil, decodeError(name, "", err)
	}
	fail := func(err error) (image.Image, error) {
		return nil, decodeError(name, f.name, err)
	}
	whiteIsZero := false
	if f.name == "tiff" {
		r, size := bytes.NewReader(data), int64(len(data))
		pages, err := tiffio.Pages(r, size)
		if err != nil {
			return fail(err)
		}
		if pages > 1 {
			return fail(fileio.Unsupportedf("multi-page TIFF (%d pages): label it as a volume with 'cclabel volume'", pages))
		}
		p, ok := tiffio.FirstValue(r, size, tiffio.TagPhotometric)
		whiteIsZero = ok && p == 0
	}
	cfg, err := f.decodeConfig(bytes.NewReader(data))
	if err != nil {
		return fail(err)
	}
	if err := checkImageSize(cfg.Width, cfg.Height, int64(len(data)), f.maxPixelsPerByte, maxPixels); err != nil {
		return fail(err)
	}
	img, err := f.decode(data)
	if err != nil {
		return fail(err)
	}
	if f.name == "gif" {
		img = gifOnScreen(img, cfg, data)
	}
	if b := img.Bounds(); b != image.Rect(0, 0, cfg.Width, cfg.Height) {
		return fail(fmt.Errorf("decoded bounds %v differ from the header's %dx%d", b, cfg.Width, cfg.Height))
	}
	switch {
	case f.name == "jpeg":
		img = orient(img, jpegOrientation(data))
	case whiteIsZero:
		tiffio.Uninvert(img)
	}
	return img, nil
}

// checkImageSize checks a header's width and height: both at least 1, at
// most maxPixels pixels, and no more than a file of fileSize bytes can
// encode at maxPerByte pixels a byte (0: no such bound).
func checkImageSize(width, height int, fileSize, maxPerByte int64, maxPixels int) error {
	n, err := imagegraph.PixelCount(width, height, 1)
	if err != nil || n > maxPixels {
		if width < 1 || height < 1 {
			return fmt.Errorf("zero-size image (%dx%d)", width, height)
		}
		return fmt.Errorf("%dx%d image has more than %d pixels", width, height, maxPixels)
	}
	if maxPerByte > 0 && int64(n)/maxPerByte > fileSize {
		return fmt.Errorf("header gives %dx%d pixels, more than a %d-byte file can hold (truncated or damaged)",
			width, height, fileSize)
	}
	return nil
}

// decodeError returns a one-line image decoding error naming the input:
// "formats: NAME: FORMAT: message", where an unexpected end of the data
// reads as a truncated file. It is an *fileio.UnsupportedError for an
// unknown format or feature, an *fileio.FileError when reading failed,
// and an *fileio.FormatError otherwise.
func decodeError(name, format string, err error) error {
	msg := err.Error()
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		msg = "unexpected end of data (truncated file?)"
	}
	return fileio.Wrap(name, format, &lineError{fileio.OneLine(msg), err})
}

// lineError is err with another message.
type lineError struct {
	msg string
	err error
}

func (e *lineError) Error() string { return e.msg }
func (e *lineError) Unwrap() error { return e.err }

// ConfigFile returns an image file's size and colour model from its header.
// It reads the header alone (what [image.DecodeConfig] gives), without
// decoding pixels.
func ConfigFile(path string) (image.Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return image.Config{}, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	head := make([]byte, 64)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return image.Config{}, decodeError(path, "", fmt.Errorf("read: %w", err))
	}
	format, err := sniffImage(head[:n])
	if err != nil {
		return image.Config{}, decodeError(path, "", err)
	}
	cfg, err := format.decodeConfig(io.MultiReader(bytes.NewReader(head[:n]), f))
	if err != nil {
		return image.Config{}, decodeError(path, format.name, err)
	}
	return cfg, nil
}
