package imageio

import "encoding/binary"

// jpegOrientation returns the EXIF orientation (1..8) of the JPEG file in
// data, or 1 when it has none or a damaged one. It reads the marker
// segments up to the first scan and parses the first APP1 segment that
// starts with "Exif\x00\x00".
func jpegOrientation(data []byte) int {
	if len(data) < 2 || data[0] != 0xff || data[1] != 0xd8 {
		return 1
	}
	i := 2
	for i+4 <= len(data) {
		if data[i] != 0xff {
			return 1
		}
		marker := data[i+1]
		switch {
		case marker == 0xff: // fill byte
			i++
			continue
		case marker == 0x01 || marker >= 0xd0 && marker <= 0xd8: // no length
			i += 2
			continue
		case marker == 0xd9 || marker == 0xda: // end of image, start of scan
			return 1
		}
		n := int(binary.BigEndian.Uint16(data[i+2 : i+4]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xe1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			return exifOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// exifOrientation returns the orientation tag (0x0112) of the first IFD of
// the TIFF-structured EXIF data b, or 1 when it is absent, out of the range
// 1..8 or unreadable.
func exifOrientation(b []byte) int {
	if len(b) < 8 {
		return 1
	}
	var order binary.ByteOrder
	switch string(b[:4]) {
	case "II*\x00":
		order = binary.LittleEndian
	case "MM\x00*":
		order = binary.BigEndian
	default:
		return 1
	}
	off := uint64(order.Uint32(b[4:8]))
	if off+2 > uint64(len(b)) {
		return 1
	}
	count := int(order.Uint16(b[off:]))
	entries := b[off+2:]
	for k := 0; k < count && 12*(k+1) <= len(entries); k++ {
		e := entries[12*k : 12*(k+1)]
		if order.Uint16(e[0:2]) != 0x0112 || order.Uint32(e[4:8]) < 1 {
			continue
		}
		var v uint32
		switch order.Uint16(e[2:4]) {
		case 3: // SHORT
			v = uint32(order.Uint16(e[8:10]))
		case 4: // LONG
			v = order.Uint32(e[8:12])
		default:
			return 1
		}
		if v < 1 || v > 8 {
			return 1
		}
		return int(v)
	}
	return 1
}
