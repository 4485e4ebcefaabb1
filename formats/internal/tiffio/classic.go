package tiffio

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// typeSizes are the byte sizes of the TIFF field types (0: unknown).
var typeSizes = [...]uint64{0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 0, 0, 8, 8, 8}

// bigEntry is one entry of a BigTIFF IFD, its values resolved.
type bigEntry struct {
	tag, typ uint16
	count    uint64
	// raw holds the values as stored (count * the type's size bytes).
	raw []byte
}

// Classic converts one page of a BigTIFF file to a classic single-page TIFF.
// The page is that of data (layout l) whose IFD is at off, and the result is
// a file golang.org/x/image/tiff decodes: the same tags (8-byte LONG8 and
// IFD8 values narrowed to LONG), the page's strips or tiles copied after the
// IFD and their offsets rewritten; its first IFD is at byte 8. With blocks
// false the strips and tiles are left out (offsets 0), for reading the header
// alone. A page whose blocks or values lie outside data, or whose classic
// file would pass 4 GiB, is an error starting with "tiff: ".
func Classic(data []byte, l Layout, off uint64, blocks bool) ([]byte, error) {
	if !l.Big {
		return nil, errors.New("tiff: Classic takes a BigTIFF page")
	}
	entries, err := l.bigEntries(data, off)
	if err != nil {
		return nil, err
	}
	var offsets, counts *bigEntry
	for i := range entries {
		switch entries[i].tag {
		case tagStripOffsets, tagTileOffsets:
			offsets = &entries[i]
		case tagStripByteCounts, tagTileByteCounts:
			counts = &entries[i]
		}
	}
	// The classic file: header, IFD (2 + 12 n + 4 bytes), out-of-line
	// values, then the blocks.
	n := len(entries)
	ifdEnd := uint64(8 + 2 + 12*n + 4)
	out := make([]byte, ifdEnd, ifdEnd+1024)
	copy(out, l.headerBytes())
	l.Order.PutUint32(out[4:], 8)
	l.Order.PutUint16(out[8:], uint16(n))
	narrowed := make([][]byte, n)
	types := make([]uint16, n) // the classic field types
	for i, e := range entries {
		v, typ, err := l.narrow(e)
		if err != nil {
			return nil, err
		}
		narrowed[i], types[i] = v, typ
	}
	// The block offsets become LONGs (rewritten below, or 0 without the
	// blocks), whatever their BigTIFF type: their slot is sized for that.
	offsetsAt := -1
	for i := range entries {
		if &entries[i] == offsets {
			offsetsAt = i
			narrowed[i], types[i] = make([]byte, 4*offsets.count), 4
		}
	}
	// Where each value goes: inline (at most 4 bytes) or after the IFD.
	at := make([]uint64, n)
	for i, v := range narrowed {
		if len(v) > 4 {
			at[i] = uint64(len(out))
			out = append(out, v...)
			if len(out)%2 == 1 {
				out = append(out, 0) // word alignment, as TIFF asks
			}
		}
	}
	if offsets != nil && blocks {
		if counts == nil || counts.count != offsets.count {
			return nil, errors.New("tiff: BigTIFF page: block offsets without matching byte counts")
		}
		newOffsets, err := l.copyBlocks(data, offsets, counts, &out)
		if err != nil {
			return nil, err
		}
		narrowed[offsetsAt] = newOffsets
	}
	if uint64(len(out)) > math.MaxUint32 {
		return nil, fmt.Errorf("tiff: a BigTIFF page of %d bytes does not fit a classic TIFF", len(out))
	}
	for i, e := range entries {
		p := out[10+12*i:]
		l.Order.PutUint16(p[0:], e.tag)
		l.Order.PutUint16(p[2:], types[i])
		l.Order.PutUint32(p[4:], uint32(e.count))
		v := narrowed[i]
		if len(v) <= 4 {
			copy(p[8:12], v)
			continue
		}
		copy(out[at[i]:at[i]+uint64(len(v))], v)
		l.Order.PutUint32(p[8:], uint32(at[i]))
	}
	return out, nil
}

// headerBytes is a classic TIFF header in l's byte order (first IFD
// offset 0).
func (l Layout) headerBytes() []byte {
	h := make([]byte, 8)
	if l.Order.Uint16([]byte{1, 0}) == 1 {
		copy(h, "II")
	} else {
		copy(h, "MM")
	}
	l.Order.PutUint16(h[2:], 42)
	return h
}

// bigEntries reads the entries of the BigTIFF IFD at off, sorted by tag.
func (l Layout) bigEntries(data []byte, off uint64) ([]bigEntry, error) {
	r := readerAt(data)
	size := int64(len(data))
	count, _, err := l.IFD(r, size, off)
	if err != nil {
		return nil, err
	}
	if count > 65535 {
		return nil, fmt.Errorf("tiff: a BigTIFF IFD of %d entries does not fit a classic TIFF", count)
	}
	entries := make([]bigEntry, count)
	for k := range entries {
		e := data[off+8+20*uint64(k):]
		typ := l.Order.Uint16(e[2:4])
		n := l.Order.Uint64(e[4:12])
		var tsize uint64
		if int(typ) < len(typeSizes) {
			tsize = typeSizes[typ]
		}
		if tsize == 0 {
			return nil, fmt.Errorf("tiff: BigTIFF tag %d has unknown field type %d", l.Order.Uint16(e[0:2]), typ)
		}
		if n > math.MaxUint32 || n > uint64(len(data))/tsize {
			return nil, fmt.Errorf("tiff: BigTIFF tag %d has %d values, more than the file holds", l.Order.Uint16(e[0:2]), n)
		}
		bytes := n * tsize
		raw := e[12:20]
		if bytes > 8 {
			at := l.Order.Uint64(e[12:20])
			if at > uint64(len(data)) || bytes > uint64(len(data))-at {
				return nil, fmt.Errorf("tiff: BigTIFF tag %d's values lie outside the file", l.Order.Uint16(e[0:2]))
			}
			raw = data[at : at+bytes]
		}
		entries[k] = bigEntry{tag: l.Order.Uint16(e[0:2]), typ: typ, count: n, raw: raw[:bytes]}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].tag < entries[j].tag })
	return entries, nil
}

// narrow returns e's values for a classic TIFF: LONG8, SLONG8 and IFD8
// (16, 17, 18) become LONG, SLONG and LONG when every value fits 32 bits.
func (l Layout) narrow(e bigEntry) ([]byte, uint16, error) {
	switch e.typ {
	case 16, 17, 18:
		out := make([]byte, 4*e.count)
		for i := range e.count {
			v := l.Order.Uint64(e.raw[8*i:])
			if e.typ == 17 {
				if s := int64(v); s < math.MinInt32 || s > math.MaxInt32 {
					return nil, 0, fmt.Errorf("tiff: BigTIFF tag %d value %d does not fit 32 bits", e.tag, s)
				}
			} else if v > math.MaxUint32 && e.tag != tagStripOffsets && e.tag != tagTileOffsets {
				return nil, 0, fmt.Errorf("tiff: BigTIFF tag %d value %d does not fit 32 bits", e.tag, v)
			}
			l.Order.PutUint32(out[4*i:], uint32(v))
		}
		typ := uint16(4)
		if e.typ == 17 {
			typ = 9
		}
		return out, typ, nil
	}
	return e.raw, e.typ, nil
}

// copyBlocks appends the strips or tiles that offsets and counts name to
// *out and returns their new offsets as classic LONG values.
func (l Layout) copyBlocks(data []byte, offsets, counts *bigEntry, out *[]byte) ([]byte, error) {
	value := func(e *bigEntry, i uint64) uint64 {
		switch typeSizes[e.typ] {
		case 2:
			return uint64(l.Order.Uint16(e.raw[2*i:]))
		case 4:
			return uint64(l.Order.Uint32(e.raw[4*i:]))
		}
		return l.Order.Uint64(e.raw[8*i:])
	}
	if s := typeSizes[offsets.typ]; s < 2 || s > 8 || typeSizes[counts.typ] < 2 {
		return nil, errors.New("tiff: BigTIFF block offsets or byte counts of an unusable type")
	}
	placed := make([]byte, 4*offsets.count)
	for i := range offsets.count {
		at, n := value(offsets, i), value(counts, i)
		if at > uint64(len(data)) || n > uint64(len(data))-at {
			return nil, fmt.Errorf("tiff: BigTIFF block %d lies outside the file", i)
		}
		if uint64(len(*out))+n > math.MaxUint32 {
			return nil, errors.New("tiff: a BigTIFF page's blocks pass 4 GiB, more than a classic TIFF holds")
		}
		l.Order.PutUint32(placed[4*i:], uint32(len(*out)))
		*out = append(*out, data[at:at+n]...)
	}
	return placed, nil
}

// readerAt reads a byte slice at offsets.
type readerAt []byte

// ReadAt implements io.ReaderAt.
func (b readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(b)) {
		return 0, errors.New("tiff: offset outside the file")
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, errors.New("tiff: read past the end of the file")
	}
	return n, nil
}
