package tiffio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// TagPhotometric is the TIFF PhotometricInterpretation tag: 0 is
// WhiteIsZero, 1 BlackIsZero.
const TagPhotometric = 262

// Layout is the byte order and IFD layout of a TIFF file.
type Layout struct {
	// Order is the byte order of the file.
	Order binary.ByteOrder
	// Big is set for BigTIFF: 8-byte offsets and entry counts, 20-byte
	// entries.
	Big bool
	// First is the offset of the first IFD.
	First uint64
}

// Pages returns the number of pages in the TIFF data r. Pages are image file
// directories (IFDs); r holds size bytes of classic TIFF or BigTIFF, and the
// count walks the chain of IFDs from the header. An IFD that does not lie
// wholly inside the data, a chain that loops and a file without IFDs are
// errors; they start with "tiff: ".
func Pages(r io.ReaderAt, size int64) (int, error) {
	l, err := ReadHeader(r, size)
	if err != nil {
		return 0, err
	}
	if l.First == 0 {
		return 0, errors.New("tiff: no image (the first IFD offset is 0)")
	}
	// Brent's cycle detection: the walk is compared with a saved offset
	// that moves to the walk's position after 1, 2, 4, 8, ... steps, so a
	// loop is found in time linear in the chain without remembering it.
	pages, saved := 0, uint64(0)
	power, steps := 1, 0
	for off := l.First; off != 0; {
		if off == saved {
			return 0, fmt.Errorf("tiff: the IFD chain loops back to offset %d", off)
		}
		if steps == power {
			saved, power, steps = off, 2*power, 0
		}
		_, next, err := l.IFD(r, size, off)
		if err != nil {
			return 0, err
		}
		pages++
		steps++
		off = next
	}
	return pages, nil
}

// ReadHeader reads the 8-byte classic or 16-byte BigTIFF header.
func ReadHeader(r io.ReaderAt, size int64) (Layout, error) {
	var b [16]byte
	if size < 8 || readFullAt(r, b[:8], 0) != nil {
		return Layout{}, errors.New("tiff: file too short for a header")
	}
	var l Layout
	switch string(b[:2]) {
	case "II":
		l.Order = binary.LittleEndian
	case "MM":
		l.Order = binary.BigEndian
	default:
		return Layout{}, errors.New("tiff: malformed header (no byte order mark)")
	}
	switch l.Order.Uint16(b[2:4]) {
	case 42:
		l.First = uint64(l.Order.Uint32(b[4:8]))
	case 43:
		l.Big = true
		if size < 16 || readFullAt(r, b[8:16], 8) != nil {
			return Layout{}, errors.New("tiff: file too short for a BigTIFF header")
		}
		if l.Order.Uint16(b[4:6]) != 8 || l.Order.Uint16(b[6:8]) != 0 {
			return Layout{}, errors.New("tiff: malformed BigTIFF header")
		}
		l.First = l.Order.Uint64(b[8:16])
	default:
		return Layout{}, errors.New("tiff: malformed header (no 42)")
	}
	return l, nil
}

// IFD checks that the IFD at off lies inside the data and describes it. It
// returns its number of entries and the offset of the next IFD (0 for none).
func (l Layout) IFD(r io.ReaderAt, size int64, off uint64) (entries, next uint64, err error) {
	header, countSize, entrySize, offSize := uint64(8), uint64(2), uint64(12), uint64(4)
	if l.Big {
		header, countSize, entrySize, offSize = 16, 8, 20, 8
	}
	end := uint64(size)
	if off < header || off > end || end-off < countSize+offSize {
		return 0, 0, fmt.Errorf("tiff: IFD offset %d lies outside the file (%d bytes)", off, size)
	}
	var b [8]byte
	if err := readFullAt(r, b[:countSize], int64(off)); err != nil {
		return 0, 0, fmt.Errorf("tiff: reading the IFD at offset %d: %w", off, err)
	}
	if l.Big {
		entries = l.Order.Uint64(b[:8])
	} else {
		entries = uint64(l.Order.Uint16(b[:2]))
	}
	if entries > (end-off-countSize-offSize)/entrySize {
		return 0, 0, fmt.Errorf("tiff: IFD at offset %d has %d entries, more than the file holds", off, entries)
	}
	nextAt := off + countSize + entries*entrySize
	if err := readFullAt(r, b[:offSize], int64(nextAt)); err != nil {
		return 0, 0, fmt.Errorf("tiff: reading the IFD at offset %d: %w", off, err)
	}
	if l.Big {
		next = l.Order.Uint64(b[:8])
	} else {
		next = uint64(l.Order.Uint32(b[:4]))
	}
	return entries, next, nil
}

// FirstValue returns the value of tag in the first IFD of a TIFF file. ok is
// true only when the tag is there with a single SHORT or LONG value.
func FirstValue(r io.ReaderAt, size int64, tag uint16) (uint64, bool) {
	l, err := ReadHeader(r, size)
	if err != nil || l.First == 0 {
		return 0, false
	}
	entries, _, err := l.IFD(r, size, l.First)
	if err != nil {
		return 0, false
	}
	countSize, entrySize := uint64(2), uint64(12)
	if l.Big {
		countSize, entrySize = 8, 20
	}
	var e [20]byte
	for k := range entries {
		if readFullAt(r, e[:entrySize], int64(l.First+countSize+k*entrySize)) != nil {
			return 0, false
		}
		if l.Order.Uint16(e[0:2]) != tag {
			continue
		}
		typ, value := l.Order.Uint16(e[2:4]), e[8:]
		var count uint64
		if l.Big {
			count, value = l.Order.Uint64(e[4:12]), e[12:]
		} else {
			count = uint64(l.Order.Uint32(e[4:8]))
		}
		switch {
		case count != 1:
			return 0, false
		case typ == 3: // SHORT
			return uint64(l.Order.Uint16(value)), true
		case typ == 4: // LONG
			return uint64(l.Order.Uint32(value)), true
		}
		return 0, false
	}
	return 0, false
}

// readFullAt fills b from r at off; reaching the end of the data exactly
// at the end of b is not an error.
func readFullAt(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}
