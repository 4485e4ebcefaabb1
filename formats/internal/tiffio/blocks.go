package tiffio

// block is one strip or tile of a page: where its data is, where it goes
// and its size as x/image/tiff sees it (a tile's full size even where it
// hangs over the page's edge).
type block struct {
	off, count uint32
	x, y, w, h int
	// limit is x/image/tiff's bound on the block's decoded bytes: 8 a
	// pixel of the nominal block (the page's width times the rows per
	// strip, or a tile).
	limit int64
}

// pageBlocks lists the strips or tiles of a page w x h pixels in
// x/image/tiff's terms, or errNoSplit where that decoder would refuse the
// layout or the data does not lie inside the file past its header.
func pageBlocks(data []byte, d *ifd, w, h int) ([]block, error) {
	tw, err := d.first(data, tagTileWidth, 0)
	if err != nil {
		return nil, err
	}
	offTag, countTag := uint16(tagStripOffsets), uint16(tagStripByteCounts)
	bw, bh, padded := w, h, tw != 0
	if padded {
		tl, err := d.first(data, tagTileLength, 0)
		if err != nil {
			return nil, err
		}
		bw, bh = int(tw), int(tl)
		// x/image/tiff's limits on tile sizes.
		tooBig := (bw-w > 16 || bh-h > 16) && (bw > 1024 || bh > 1024)
		if bw < 8 || bh < 8 || uint64(bw)*uint64(bh) > 1<<40 || tooBig {
			return nil, errNoSplit
		}
		offTag, countTag = tagTileOffsets, tagTileByteCounts
	} else if rps, err := d.first(data, tagRowsPerStrip, 0); err != nil {
		return nil, err
	} else if rps > 0 && int64(rps) < int64(h) {
		bh = int(rps)
	}
	across, down := (w+bw-1)/bw, (h+bh-1)/bh
	offs, err := d.values(data, offTag)
	if err != nil {
		return nil, err
	}
	counts, err := d.values(data, countTag)
	if err != nil || len(offs) < across*down || len(counts) < across*down {
		return nil, errNoSplit
	}
	blocks := make([]block, 0, across*down)
	for j := range down {
		for i := range across {
			b := block{off: offs[j*across+i], count: counts[j*across+i], x: i * bw, y: j * bh, w: bw, h: bh,
				limit: int64(bw) * int64(bh) * 8}
			if !padded && i == across-1 && w%bw != 0 {
				b.w = w % bw
			}
			if !padded && j == down-1 && h%bh != 0 {
				b.h = h % bh
			}
			if !inside(uint64(b.off), uint64(b.count), len(data)) {
				return nil, errNoSplit
			}
			blocks = append(blocks, b)
		}
	}
	return blocks, nil
}
