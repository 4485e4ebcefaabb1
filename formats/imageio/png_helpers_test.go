package imageio

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"reflect"
	"testing"
)

// pngSpec describes a PNG file to build by hand, so that colour types,
// depths, filters and chunk layouts image/png's encoder never writes are
// covered.
type pngSpec struct {
	width, height     int
	depth, colourType byte
	interlace         byte
	plte, trns        []byte // nil: no chunk
	// raw is the filtered data (each row's filter byte and bytes); it is
	// cut or padded with zeros to the size the header asks for unless
	// keepRaw is set.
	raw     []byte
	keepRaw bool
	level   int // zlib level
	// split cuts the zlib stream into IDAT chunks of at most split bytes
	// (0: one chunk).
	split int
}

// rawSize returns the filtered data size of a non-interlaced image.
func (s pngSpec) rawSize() int {
	channels := map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[s.colourType]
	bits := channels * int(s.depth)
	return s.height * (1 + (bits*s.width+7)/8)
}

// build returns the file.
func (s pngSpec) build(t testing.TB) []byte {
	raw := s.raw
	if !s.keepRaw {
		raw = make([]byte, s.rawSize())
		copy(raw, s.raw)
	}
	var z bytes.Buffer
	zw, err := zlib.NewWriterLevel(&z, s.level)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(raw)
	zw.Close()
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(s.width))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(s.height))
	ihdr = append(ihdr, s.depth, s.colourType, 0, 0, s.interlace)
	b := []byte(pngSignature)
	b = appendChunk(b, "IHDR", ihdr)
	if s.plte != nil {
		b = appendChunk(b, "PLTE", s.plte)
	}
	if s.trns != nil {
		b = appendChunk(b, "tRNS", s.trns)
	}
	b = appendChunk(b, "tEXt", []byte("Comment\x00test"))
	stream := z.Bytes()
	for len(stream) > 0 {
		n := len(stream)
		if s.split > 0 {
			n = min(n, s.split)
		}
		b = appendChunk(b, "IDAT", stream[:n])
		stream = stream[n:]
	}
	return appendChunk(b, "IEND", nil)
}

// appendChunk appends a chunk with its CRC.
func appendChunk(b []byte, typ string, body []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)))
	start := len(b)
	b = append(b, typ...)
	b = append(b, body...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// fixCRCs rewrites the CRC of every whole chunk of a PNG file, so that
// mutated files get past the CRC checks.
func fixCRCs(data []byte) []byte {
	data = bytes.Clone(data)
	for pos := len(pngSignature); pos+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[pos:]))
		if n < 0 || n > len(data)-pos-12 {
			break
		}
		binary.BigEndian.PutUint32(data[pos+8+n:], crc32.ChecksumIEEE(data[pos+4:pos+8+n]))
		pos += 12 + n
	}
	return data
}

// maxTestPixels keeps images decoded in tests and fuzzing small.
const maxPNGTestPixels = 1 << 22

// compareWithStd checks that Decode gives what image/png gives for data
// (the same image or the same error), and that decodeFast succeeds only
// where image/png does, with the same image. It returns whether the fast
// path decoded the file.
func compareWithImagePNG(t *testing.T, data []byte) bool {
	t.Helper()
	if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err == nil && cfg.Width*cfg.Height > maxPNGTestPixels {
		return false // as imageio refuses it before decoding
	}
	want, wantErr := png.Decode(bytes.NewReader(data))
	got, gotErr := decodePNG(data)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("Decode error %v, image/png %v", gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode gave %T %v, image/png %T %v (different pixels or palette)", got, pngBounds(got), want, pngBounds(want))
	}
	fast, fastErr := decodePNGFast(data)
	if fastErr != nil {
		return false
	}
	if wantErr != nil {
		t.Fatalf("fast path decoded a file image/png refuses (%v)", wantErr)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("fast path gave %T, image/png %T, or different pixels or palette", fast, want)
	}
	return true
}

// bounds returns img's bounds, or an empty rectangle for nil.
func pngBounds(img image.Image) image.Rectangle {
	if img == nil {
		return image.Rectangle{}
	}
	return img.Bounds()
}
