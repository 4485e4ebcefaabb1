package imageio

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"strings"

	xtiff "golang.org/x/image/tiff"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/formats/internal/tiffio"
	"github.com/cclabel/cclabel/imagegraph"
)

// ReadTIFFStackFile reads a multi-page TIFF as a volume, a page per plane.
// Page k is plane z=k; a single-page TIFF gives Depth 1. Every page must have
// the size and sample class of the first (8 or 16-bit grey, paletted, or
// colour). Samples are those of [Decode] and [imagegraph.FromImage], applied
// to the whole stack: grey as stored (WhiteIsZero pages keep their stored
// values), palette indices, colour as grey when R=G=B in every page, else
// packed 0xRRGGBB. Compression: none, PackBits, LZW, Deflate (what
// golang.org/x/image/tiff decodes), in classic TIFF or BigTIFF (each page
// converted to a classic file of its own, at most 4 GiB). All page headers
// are checked before the volume is allocated. The volume has spacing 1, an
// identity affine and Format "tiff". Errors read "formats: PATH: tiff: ...".
func ReadTIFFStackFile(path string) (*imagegraph.Volume, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	v, err := readTIFFStack(data, stackVoxelLimit(len(data)))
	if err != nil {
		return nil, fileio.Wrap(path, "tiff", err)
	}
	return v, nil
}

// maxExpansion bounds how many decoded bytes a byte of TIFF data can give
// (LZW's longest codes; Deflate's bound is 1032, PackBits' 64).
const maxExpansion = 4096

// stackVoxelLimit is the most voxels a stack read from size bytes may
// have: up to imagegraph.MaxPixels as for any image, beyond that only as
// many as the data can decode to, since pages may share their strips and
// the page headers alone would otherwise size the allocation.
func stackVoxelLimit(size int) int {
	return int(min(int64(imagegraph.MaxVoxels), max(int64(imagegraph.MaxPixels), maxExpansion*int64(size))))
}

// readTIFFStack reads the TIFF file held in data as a volume of at most
// maxPixels voxels. Errors start with "tiff: ".
func readTIFFStack(data []byte, maxPixels int) (*imagegraph.Volume, error) {
	r, size := bytes.NewReader(data), int64(len(data))
	l, err := tiffio.ReadHeader(r, size)
	if err != nil {
		return nil, err
	}
	pages, err := tiffio.Pages(r, size)
	if err != nil {
		return nil, err
	}
	// The chain has no loop (tiffio.Pages checked), so this walk ends.
	var offs []uint64
	for off := l.First; off != 0 && len(offs) < pages; {
		offs = append(offs, off)
		if _, off, err = l.IFD(r, size, off); err != nil {
			return nil, err
		}
	}
	// Each page is read through a classic TIFF file whose first IFD is
	// the page's: the file itself with its header patched, or for
	// BigTIFF the page converted (tiffio.Classic: header only here, with
	// its strips or tiles when decoded).
	readers := make([]*io.SectionReader, len(offs))
	for k, off := range offs {
		if !l.Big {
			readers[k] = io.NewSectionReader(newTIFFStackPageReader(data, l, off), 0, size)
			continue
		}
		head, err := tiffio.Classic(data, l, off, false)
		if err != nil {
			return nil, tiffStackPageError(k, err)
		}
		readers[k] = io.NewSectionReader(bytes.NewReader(head), 0, int64(len(head)))
	}
	var stack *tiffio.Stack
	for k, pr := range readers {
		cfg, err := xtiff.DecodeConfig(io.NewSectionReader(pr, 0, pr.Size()))
		if err != nil {
			return nil, tiffStackPageError(k, err)
		}
		if k == 0 {
			if stack, err = tiffio.NewStack(cfg.Width, cfg.Height, pages, maxPixels); err != nil {
				return nil, fmt.Errorf("tiff: %w", err)
			}
		} else if cfg.Width != stack.Width || cfg.Height != stack.Height {
			return nil, fmt.Errorf("tiff: page %d is %dx%d, page 0 is %dx%d (all pages of a stack must have one size)",
				k, cfg.Width, cfg.Height, stack.Width, stack.Height)
		}
	}
	decoded := decodePagesOf(len(offs), func(k int) ([]byte, uint32, error) {
		if !l.Big {
			return data, uint32(offs[k]), nil
		}
		page, err := tiffio.Classic(data, l, offs[k], true)
		return page, 8, err
	})
	for k, pr := range readers {
		img, err := decoded(k)
		if err != nil {
			return nil, tiffStackPageError(k, err)
		}
		if b := img.Bounds(); b != image.Rect(0, 0, stack.Width, stack.Height) {
			return nil, fmt.Errorf("tiff: page %d: decoded bounds %v differ from its header's %dx%d", k, b, stack.Width, stack.Height)
		}
		if p, ok := tiffio.FirstValue(pr, pr.Size(), tiffio.TagPhotometric); ok && p == 0 {
			tiffio.Uninvert(img)
		}
		if err := stack.Add(k, img); err != nil {
			return nil, fileio.Unsupportedf("tiff: page %d is %w (the pages of a stack must share size and sample type)", k, err)
		}
	}
	raster, err := stack.Raster()
	if err != nil {
		return nil, fmt.Errorf("tiff: %w", err)
	}
	return imagegraph.NewVolume(raster, "tiff"), nil
}

// tiffStackPageError describes a decoding error of page k on one line.
func tiffStackPageError(k int, err error) error {
	msg := err.Error()
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		msg = "unexpected end of data (truncated file?)"
	}
	if fileio.IsUnsupported(err) {
		return fileio.Unsupportedf("tiff: page %d: %s", k, fileio.OneLine(strings.TrimPrefix(msg, "tiff: ")))
	}
	return fmt.Errorf("tiff: page %d: %s", k, fileio.OneLine(strings.TrimPrefix(msg, "tiff: ")))
}

// tiffStackPageReader presents a classic TIFF file whose header's first-IFD
// offset points at one chosen IFD, so that a decoder that reads only the
// first page decodes that one.
type tiffStackPageReader struct {
	data []byte
	head [8]byte
	// pos is the position of Read.
	pos int64
}

// newTIFFStackPageReader returns a reader of data whose first IFD is at ifd.
func newTIFFStackPageReader(data []byte, l tiffio.Layout, ifd uint64) *tiffStackPageReader {
	pr := &tiffStackPageReader{data: data}
	copy(pr.head[:], data)
	l.Order.PutUint32(pr.head[4:], uint32(ifd))
	return pr
}

// at returns a fresh reader of the same page, positioned at off.
func (p *tiffStackPageReader) at(off int64) *tiffStackPageReader {
	return &tiffStackPageReader{data: p.data, head: p.head, pos: off}
}

// ReadAt reads the file with the patched header.
func (p *tiffStackPageReader) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("tiff: negative offset")
	}
	if off >= int64(len(p.data)) {
		return 0, io.EOF
	}
	n := copy(b, p.data[off:])
	if off < int64(len(p.head)) {
		copy(b[:n], p.head[off:])
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// Read reads sequentially from the current position.
func (p *tiffStackPageReader) Read(b []byte) (int, error) {
	n, err := p.ReadAt(b, p.pos)
	p.pos += int64(n)
	if n > 0 && err == io.EOF {
		err = nil
	}
	return n, err
}
