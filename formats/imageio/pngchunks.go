package imageio

import (
	"encoding/binary"
	"hash/crc32"
)

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// Decoding stages, in the order the specification requires the critical
// chunks (IHDR, PLTE, tRNS, IDAT, IEND), as image/png tracks them.
const (
	dsStart = iota
	dsSeenIHDR
	dsSeenPLTE
	dsSeentRNS
	dsSeenIDAT
	dsSeenIEND
)

// chunk is one chunk of the file.
type pngChunk struct {
	typ  string
	body []byte
}

// chunkReader walks the chunks of a file held in memory.
type pngChunkReader struct {
	data []byte
	pos  int
}

// next returns the next chunk after checking its length and CRC; it
// fails on a truncated chunk, a length over 2^31-1 or a bad CRC.
func (r *pngChunkReader) next() (pngChunk, error) {
	rest := r.data[r.pos:]
	if len(rest) < 12 {
		return pngChunk{}, errPNGNotFast
	}
	n := binary.BigEndian.Uint32(rest)
	if n > 0x7fffffff || uint64(n)+12 > uint64(len(rest)) {
		return pngChunk{}, errPNGNotFast
	}
	typ, body := rest[4:8], rest[8:8+n]
	if crc32.Update(crc32.ChecksumIEEE(typ), crc32.IEEETable, body) != binary.BigEndian.Uint32(rest[8+n:]) {
		return pngChunk{}, errPNGNotFast
	}
	r.pos += 12 + int(n)
	return pngChunk{typ: string(typ), body: body}, nil
}

// peekIDAT reports whether the next chunk is an IDAT chunk.
func (r *pngChunkReader) peekIDAT() bool {
	rest := r.data[r.pos:]
	return len(rest) >= 8 && string(rest[4:8]) == "IDAT"
}

// parseFile reads every chunk up to IEND with the ordering rules of
// image/png and returns the header and the zlib stream: the data of the
// first run of consecutive IDAT chunks (later IDAT chunks are ignored, as
// image/png ignores them once the stream has ended). Any departure from a
// well-formed file gives errNotFast.
func parsePNGFile(data []byte) (*pngHeader, []byte, error) {
	if len(data) < len(pngSignature) || string(data[:len(pngSignature)]) != pngSignature {
		return nil, nil, errPNGNotFast
	}
	r := &pngChunkReader{data: data, pos: len(pngSignature)}
	h := &pngHeader{}
	var stream []byte
	for stage := dsStart; stage != dsSeenIEND; {
		c, err := r.next()
		if err != nil {
			return nil, nil, err
		}
		next, err := h.stageOf(c.typ, stage)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case c.typ == "IHDR":
			err = h.parseIHDR(c.body)
		case c.typ == "PLTE":
			err = h.parsePLTE(c.body)
		case c.typ == "tRNS":
			err = h.parsetRNS(c.body)
		case c.typ == "IDAT" && stage != dsSeenIDAT:
			stream, err = r.idatRun(c.body)
		}
		if err != nil {
			return nil, nil, err
		}
		stage = next
	}
	return h, stream, nil
}

// stageOf returns the stage after a chunk of type typ read at stage, or
// errNotFast where image/png reports the chunk out of order.
func (h *pngHeader) stageOf(typ string, stage int) (int, error) {
	switch typ {
	case "IHDR":
		if stage != dsStart {
			return 0, errPNGNotFast
		}
		return dsSeenIHDR, nil
	case "PLTE":
		if stage != dsSeenIHDR {
			return 0, errPNGNotFast
		}
		return dsSeenPLTE, nil
	case "tRNS":
		ok := stage == dsSeenIHDR
		if cbPaletted(h.cb) {
			ok = stage == dsSeenPLTE
		} else if cbTrueColor(h.cb) {
			ok = stage == dsSeenIHDR || stage == dsSeenPLTE
		}
		if !ok {
			return 0, errPNGNotFast
		}
		return dsSeentRNS, nil
	case "IDAT":
		if stage < dsSeenIHDR || stage > dsSeenIDAT || (stage == dsSeenIHDR && cbPaletted(h.cb)) {
			return 0, errPNGNotFast
		}
		return dsSeenIDAT, nil
	case "IEND":
		if stage != dsSeenIDAT {
			return 0, errPNGNotFast
		}
		return dsSeenIEND, nil
	}
	// Other chunks are skipped at any stage.
	return stage, nil
}

// idatRun collects the data of the IDAT chunk first and of the IDAT
// chunks that follow it directly. A single non-empty chunk is returned
// without copying.
func (r *pngChunkReader) idatRun(first []byte) ([]byte, error) {
	stream := first
	copied := false
	for r.peekIDAT() {
		c, err := r.next()
		if err != nil {
			return nil, err
		}
		if len(c.body) == 0 {
			continue
		}
		if len(stream) == 0 {
			stream = c.body
			continue
		}
		if !copied {
			stream = append(make([]byte, 0, r.runLength(len(stream)+len(c.body))), stream...)
			copied = true
		}
		stream = append(stream, c.body...)
	}
	return stream, nil
}

// runLength returns have plus the lengths of the IDAT chunks that follow
// the current position directly, to size the stream once.
func (r *pngChunkReader) runLength(have int) int {
	pos := r.pos
	for {
		rest := r.data[pos:]
		if len(rest) < 12 || string(rest[4:8]) != "IDAT" {
			return have
		}
		n := int(binary.BigEndian.Uint32(rest))
		if n > 0x7fffffff || n+12 > len(rest) {
			return have
		}
		have += n
		pos += 12 + n
	}
}
