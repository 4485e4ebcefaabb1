package tiffio

import (
	"bytes"
	"encoding/binary"
	"image"
	"io"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zlib"
	xtiff "golang.org/x/image/tiff"
	"golang.org/x/image/tiff/lzw"

	"github.com/cclabel/cclabel/internal/parallel"
)

// TIFF tags and values the grey decoder reads beyond the layout's.
const (
	tagPhotometric = 262
	tagPredictor   = 317

	compNone       = 1
	compLZW        = 5
	compDeflate    = 8
	compDeflateOld = 32946
	compPackBits   = 32773

	predictorHorizontal = 2
)

// grayPage is an 8 or 16-bit single-sample grey page being decoded.
type grayPage struct {
	data        []byte
	order       binary.ByteOrder
	width       int
	bits        int
	compression uint32
	predictor   bool
	invert      bool // WhiteIsZero: x/image/tiff inverts the samples
	pix         []uint8
	stride      int
}

// decodeGray decodes an 8 or 16-bit grey page (BlackIsZero or
// WhiteIsZero; uncompressed, LZW, Deflate or PackBits; with or without the
// horizontal predictor; strips or tiles) itself, strips or tiles in
// parallel on up to threads goroutines, giving what x/image/tiff gives.
// Any other page, and any departure from well-formed data, gives
// errNoSplit.
func decodeGray(data []byte, ifdOff uint32, threads int) (image.Image, error) {
	if len(data) < 8 || (string(data[:4]) != "II*\x00" && string(data[:4]) != "MM\x00*") || len(data) > 1<<31 {
		return nil, errNoSplit
	}
	// x/image/tiff checks the IFD; a page it refuses is left to it.
	if _, err := xtiff.DecodeConfig(newPageFile(data, ifdOff, nil)); err != nil {
		return nil, errNoSplit
	}
	d, err := readIFD(data, orderOf(data), ifdOff)
	if err != nil {
		return nil, err
	}
	p, err := newGrayPage(data, d)
	if err != nil {
		return nil, err
	}
	h, _ := d.first(data, tagImageLength, 0)
	blocks, err := pageBlocks(data, d, p.width, int(h))
	if err != nil {
		return nil, err
	}
	var img image.Image
	r := image.Rect(0, 0, p.width, int(h))
	if p.bits == 8 {
		m := image.NewGray(r)
		img, p.pix, p.stride = m, m.Pix, m.Stride
	} else {
		m := image.NewGray16(r)
		img, p.pix, p.stride = m, m.Pix, m.Stride
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range parallel.ClampThreads(threads, len(blocks)) {
		wg.Go(func() {
			var buf []byte
			for !failed.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(blocks) {
					return
				}
				var err error
				if buf, err = p.block(blocks[i], buf); err != nil {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return nil, errNoSplit
	}
	return img, nil
}

// newGrayPage checks that the page is one decodeGray handles.
func newGrayPage(data []byte, d *ifd) (*grayPage, error) {
	w, _ := d.first(data, tagImageWidth, 0)
	bps, err := d.values(data, tagBitsPerSample)
	if err != nil || len(bps) != 1 || (bps[0] != 8 && bps[0] != 16) {
		return nil, errNoSplit
	}
	photo, err := d.first(data, tagPhotometric, 0)
	if err != nil || photo > 1 {
		return nil, errNoSplit
	}
	comp, err := d.first(data, tagCompression, 0)
	if err != nil {
		return nil, err
	}
	switch comp {
	case 0, compNone, compLZW, compDeflate, compDeflateOld, compPackBits:
	default:
		return nil, errNoSplit
	}
	pred, err := d.first(data, tagPredictor, 0)
	if err != nil {
		return nil, err
	}
	return &grayPage{data: data, order: d.order, width: int(w), bits: int(bps[0]), compression: comp,
		predictor: pred == predictorHorizontal, invert: photo == 0}, nil
}

// block decodes one strip or tile into the image, reusing buf.
func (p *grayPage) block(b block, buf []byte) ([]byte, error) {
	raw := p.data[b.off : b.off+b.count]
	limit := b.limit
	var err error
	switch p.compression {
	case 0, compNone:
		if int64(len(raw)) > limit {
			return buf, errNoSplit
		}
		buf = append(buf[:0], raw...)
	case compLZW:
		r := lzw.NewReader(bytes.NewReader(raw), lzw.MSB, 8)
		buf, err = readLimited(r, buf, limit)
		r.Close()
	case compDeflate, compDeflateOld:
		var r io.ReadCloser
		if r, err = zlib.NewReader(bytes.NewReader(raw)); err == nil {
			buf, err = readLimited(r, buf, limit)
			r.Close()
		}
	case compPackBits:
		buf, err = unpackBits(raw, buf, limit)
	}
	if err != nil {
		return buf, errNoSplit
	}
	if p.predictor && !p.undoPredictor(buf, b) {
		return buf, errNoSplit
	}
	return buf, p.store(buf, b)
}

// undoPredictor undoes the horizontal predictor over every row of the
// block as x/image/tiff does (its full height, rows of its full width),
// reporting false where the data is too short.
func (p *grayPage) undoPredictor(buf []byte, b block) bool {
	if p.bits == 8 {
		off := 0
		for range b.h {
			off++
			if off+b.w-1 > len(buf) {
				return false
			}
			row := buf[off-1 : off+b.w-1]
			for x := 1; x < len(row); x++ {
				row[x] += row[x-1]
			}
			off += b.w - 1
		}
		return true
	}
	off := 0
	for range b.h {
		off += 2
		if off+2*(b.w-1) > len(buf) {
			return false
		}
		for x := 0; x < b.w-1; x++ {
			v0 := p.order.Uint16(buf[off-2:])
			v1 := p.order.Uint16(buf[off:])
			p.order.PutUint16(buf[off:], v1+v0)
			off += 2
		}
	}
	return true
}

// store copies the block's rows that lie on the page into the image,
// inverting WhiteIsZero samples and writing 16-bit ones big-endian.
func (p *grayPage) store(buf []byte, b block) error {
	height := len(p.pix) / p.stride
	w := min(b.x+b.w, p.width) - b.x
	bpp := p.bits / 8
	rowBytes := b.w * bpp
	for y := b.y; y < min(b.y+b.h, height); y++ {
		src := (y - b.y) * rowBytes
		if src+w*bpp > len(buf) {
			return errNoSplit
		}
		row := buf[src : src+w*bpp]
		dst := p.pix[y*p.stride+b.x*bpp : y*p.stride+(b.x+w)*bpp]
		switch {
		case bpp == 1 && !p.invert:
			copy(dst, row)
		case bpp == 1:
			for x, v := range row {
				dst[x] = 0xff - v
			}
		default:
			for x := range w {
				v := p.order.Uint16(row[2*x:])
				if p.invert {
					v = 0xffff - v
				}
				binary.BigEndian.PutUint16(dst[2*x:], v)
			}
		}
	}
	return nil
}
