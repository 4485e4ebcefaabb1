package tiffio

import (
	"encoding/binary"
	"errors"
	"slices"
)

// TIFF tags and field types used to cut a page into bands.
const (
	tagImageWidth      = 256
	tagImageLength     = 257
	tagBitsPerSample   = 258
	tagCompression     = 259
	tagStripOffsets    = 273
	tagSamplesPerPixel = 277
	tagRowsPerStrip    = 278
	tagStripByteCounts = 279
	tagTileWidth       = 322
	tagTileLength      = 323
	tagTileOffsets     = 324
	tagTileByteCounts  = 325

	typeByte  = 1
	typeShort = 3
	typeLong  = 4
)

// errNoSplit says that a page is decoded whole.
var errNoSplit = errors.New("tiff: page not split")

// entry is one 12-byte IFD entry of a classic TIFF file.
type entry struct {
	tag, typ uint16
	count    uint32
	value    [4]byte // the value, or the offset of the values
}

// ifd is the entries of one IFD, in file order.
type ifd struct {
	order   binary.ByteOrder
	entries []entry
}

// readIFD reads the classic TIFF IFD at off in data.
func readIFD(data []byte, order binary.ByteOrder, off uint32) (*ifd, error) {
	// The IFD itself is read from the band's file too: past the header.
	if off < 8 {
		return nil, errNoSplit
	}
	if uint64(off)+2 > uint64(len(data)) {
		return nil, errNoSplit
	}
	n := int(order.Uint16(data[off:]))
	start := int(off) + 2
	if start+12*n > len(data) {
		return nil, errNoSplit
	}
	d := &ifd{order: order, entries: make([]entry, n)}
	for i := range d.entries {
		p := data[start+12*i:]
		e := &d.entries[i]
		e.tag, e.typ, e.count = order.Uint16(p), order.Uint16(p[2:]), order.Uint32(p[4:])
		copy(e.value[:], p[8:12])
		if i > 0 && e.tag <= d.entries[i-1].tag {
			return nil, errNoSplit // x/image/tiff refuses the page
		}
		if !valuesInside(*e, order, len(data)) {
			return nil, errNoSplit
		}
	}
	return d, nil
}

// fieldSize returns the size of a value of TIFF field type typ (1 to
// 12), or 0 for an unknown type.
func fieldSize(typ uint16) uint64 {
	switch typ {
	case 1, 2, 6, 7: // BYTE, ASCII, SBYTE, UNDEFINED
		return 1
	case 3, 8: // SHORT, SSHORT
		return 2
	case 4, 9, 11: // LONG, SLONG, FLOAT
		return 4
	case 5, 10, 12: // RATIONAL, SRATIONAL, DOUBLE
		return 8
	}
	return 0
}

// valuesInside reports whether the values of e lie in the entry or in the
// file past its 8-byte header: a band's file differs from the page's
// only in the header and past the end, so whatever is read from there
// could differ.
func valuesInside(e entry, order binary.ByteOrder, fileSize int) bool {
	size := fieldSize(e.typ)
	if size == 0 {
		return false
	}
	n := uint64(e.count) * size
	return n <= 4 || inside(uint64(order.Uint32(e.value[:])), n, fileSize)
}

// inside reports whether n bytes at off lie in a file of size bytes past
// its header.
func inside(off, n uint64, size int) bool {
	return off >= 8 && off+n <= uint64(size)
}

// find returns the entry of tag, if any.
func (d *ifd) find(tag uint16) (entry, bool) {
	for _, e := range d.entries {
		if e.tag == tag {
			return e, true
		}
	}
	return entry{}, false
}

// values returns the BYTE, SHORT or LONG values of tag (nil when the tag
// is absent); values outside data or of another type are errNoSplit.
func (d *ifd) values(data []byte, tag uint16) ([]uint32, error) {
	e, ok := d.find(tag)
	if !ok {
		return nil, nil
	}
	if e.typ != typeByte && e.typ != typeShort && e.typ != typeLong {
		return nil, errNoSplit
	}
	size := fieldSize(e.typ)
	n := uint64(e.count) * size
	raw := e.value[:]
	if n > 4 {
		off := uint64(d.order.Uint32(e.value[:]))
		if !inside(off, n, len(data)) {
			return nil, errNoSplit
		}
		raw = data[off : off+n]
	}
	out := make([]uint32, e.count)
	for i := range out {
		switch e.typ {
		case typeByte:
			out[i] = uint32(raw[i])
		case typeShort:
			out[i] = uint32(d.order.Uint16(raw[2*i:]))
		default:
			out[i] = d.order.Uint32(raw[4*i:])
		}
	}
	return out, nil
}

// first returns the first value of tag, or def when the tag is absent or
// has no values.
func (d *ifd) first(data []byte, tag uint16, def uint32) (uint32, error) {
	v, err := d.values(data, tag)
	if err != nil || len(v) == 0 {
		return def, err
	}
	return v[0], nil
}

// encode returns the IFD with the values of replace put in (tags not in
// it are added where they sort), as bytes to place at offset base of a
// virtual file, followed by the values that do not fit an entry. base
// must be even.
func (d *ifd) encode(base uint32, replace map[uint16][]uint32) []byte {
	entries := slices.Clone(d.entries)
	for tag := range replace {
		if _, ok := d.find(tag); !ok {
			i, _ := slices.BinarySearchFunc(entries, tag, func(e entry, t uint16) int { return int(e.tag) - int(t) })
			entries = slices.Insert(entries, i, entry{tag: tag})
		}
	}
	app := d.order.(binary.AppendByteOrder)
	out := app.AppendUint16(nil, uint16(len(entries)))
	extra := base + uint32(2+12*len(entries)+4)
	var tail []byte
	for _, e := range entries {
		if v, ok := replace[e.tag]; ok {
			e.typ, e.count = typeLong, uint32(len(v))
			if len(v) == 1 {
				d.order.PutUint32(e.value[:], v[0])
			} else {
				d.order.PutUint32(e.value[:], extra+uint32(len(tail)))
				for _, x := range v {
					tail = app.AppendUint32(tail, x)
				}
			}
		}
		out = app.AppendUint16(out, e.tag)
		out = app.AppendUint16(out, e.typ)
		out = app.AppendUint32(out, e.count)
		out = append(out, e.value[:]...)
	}
	out = append(out, 0, 0, 0, 0) // no next IFD
	return append(out, tail...)
}
