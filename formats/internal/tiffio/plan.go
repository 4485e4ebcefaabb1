package tiffio

import "github.com/cclabel/cclabel/internal/parallel"

// planBands cuts the page of IFD d into bands of whole strips, whole tile
// rows or, for a single uncompressed strip of one sample a pixel, rows.
// Pages of fewer than minPixels pixels, pages x/image/tiff decodes as one
// block that cannot be cut, and pages whose layout is anything but plain
// give errNoSplit.
func planBands(data []byte, d *ifd, threads, minPixels int) ([]band, error) {
	w, err := d.first(data, tagImageWidth, 0)
	if err != nil {
		return nil, err
	}
	h, err := d.first(data, tagImageLength, 0)
	if err != nil {
		return nil, err
	}
	// Sizes x/image/tiff refuses, and small pages, are decoded whole.
	if w == 0 || h == 0 || uint64(w)*uint64(h) < uint64(max(minPixels, 1)) {
		return nil, errNoSplit
	}
	if tw, err := d.first(data, tagTileWidth, 0); err != nil || tw != 0 {
		if err != nil {
			return nil, err
		}
		return planTiles(data, d, int(w), int(h), int(tw), threads)
	}
	rows := int(h)
	if rps, err := d.first(data, tagRowsPerStrip, 0); err != nil {
		return nil, err
	} else if rps > 0 && rps < h {
		rows = int(rps)
	}
	strips := (int(h) + rows - 1) / rows
	offs, err := d.values(data, tagStripOffsets)
	if err != nil {
		return nil, err
	}
	counts, err := d.values(data, tagStripByteCounts)
	if err != nil || len(offs) < strips || len(counts) < strips {
		return nil, errNoSplit
	}
	if !blocksInside(offs[:strips], counts[:strips], len(data)) {
		return nil, errNoSplit
	}
	if strips == 1 {
		return planRows(data, d, int(w), int(h), offs[0], counts[0], threads)
	}
	return groups(strips, rows, int(h), threads, func(s0, s1 int) map[uint16][]uint32 {
		return map[uint16][]uint32{tagStripOffsets: offs[s0:s1], tagStripByteCounts: counts[s0:s1]}
	}), nil
}

// planTiles cuts a tiled page into bands of whole tile rows.
func planTiles(data []byte, d *ifd, w, h, tw, threads int) ([]band, error) {
	tl, err := d.first(data, tagTileLength, 0)
	if err != nil || tl < 8 || tw < 8 {
		return nil, errNoSplit
	}
	across, down := (w+tw-1)/tw, (h+int(tl)-1)/int(tl)
	offs, err := d.values(data, tagTileOffsets)
	if err != nil {
		return nil, err
	}
	counts, err := d.values(data, tagTileByteCounts)
	if err != nil || len(offs) < across*down || len(counts) < across*down || !blocksInside(offs[:across*down], counts[:across*down], len(data)) {
		return nil, errNoSplit
	}
	return groups(down, int(tl), h, threads, func(r0, r1 int) map[uint16][]uint32 {
		return map[uint16][]uint32{tagTileOffsets: offs[r0*across : r1*across], tagTileByteCounts: counts[r0*across : r1*across]}
	}), nil
}

// planRows cuts a page stored as one uncompressed strip, of one sample a
// pixel, into bands of rows, each its own strip. The strip must hold
// every row, within the file and within what x/image/tiff accepts for a
// strip, as bands check only their own rows.
func planRows(data []byte, d *ifd, w, h int, off, count uint32, threads int) ([]band, error) {
	comp, err := d.first(data, tagCompression, 1)
	if err != nil || (comp != 0 && comp != 1) {
		return nil, errNoSplit
	}
	spp, err := d.first(data, tagSamplesPerPixel, 1)
	if err != nil || spp != 1 {
		return nil, errNoSplit
	}
	bps, err := d.values(data, tagBitsPerSample)
	if err != nil || len(bps) > 1 {
		return nil, errNoSplit
	}
	bits := uint64(1)
	if len(bps) == 1 {
		bits = uint64(bps[0])
	}
	rowBytes := (uint64(w)*bits + 7) / 8
	if uint64(count) < uint64(h)*rowBytes || uint64(count) > uint64(w)*uint64(h)*8 || uint64(off)+uint64(count) > uint64(len(data)) {
		return nil, errNoSplit
	}
	return groups(h, 1, h, threads, func(y0, y1 int) map[uint16][]uint32 {
		return map[uint16][]uint32{
			tagStripOffsets:    {off + uint32(uint64(y0)*rowBytes)},
			tagStripByteCounts: {uint32(uint64(y1-y0) * rowBytes)},
			tagRowsPerStrip:    {uint32(y1 - y0)},
		}
	}), nil
}

// groups splits units of rowsPer rows each (the last may be cut at height
// h) into bands, one per thread, each with the values replace gives for
// its units and its height as the page length.
func groups(units, rowsPer, h, threads int, replace func(u0, u1 int) map[uint16][]uint32) []band {
	n := parallel.ClampThreads(threads, units)
	bands := make([]band, n)
	for i := range bands {
		u0, u1 := units*i/n, units*(i+1)/n
		y0, y1 := u0*rowsPer, min(u1*rowsPer, h)
		r := replace(u0, u1)
		r[tagImageLength] = []uint32{uint32(y1 - y0)}
		bands[i] = band{y: y0, height: y1 - y0, replace: r}
	}
	return bands
}

// blocksInside reports whether every strip or tile lies in the file past
// its header (see valuesInside).
func blocksInside(offs, counts []uint32, size int) bool {
	for i, off := range offs {
		if !inside(uint64(off), uint64(counts[i]), size) {
			return false
		}
	}
	return true
}
