package tiffio

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"math/rand/v2"
	"reflect"
	"testing"

	xtiff "golang.org/x/image/tiff"

	"github.com/cclabel/cclabel/internal/testkit"
)

// tiffSpec describes a page to build by hand.
type tiffSpec struct {
	big                bool // big-endian
	width, height      int
	bits               []int // per sample
	photometric        int   // 0, 1 grey, 2 RGB, 3 paletted
	compression        int   // 1, 5 (LZW), 8 (deflate), 32773 (PackBits)
	predictor          int   // 0 (no tag), 1, 2
	rowsPerStrip       int   // 0: no tag (one strip)
	tileW, tileL       int   // tiles when tileW > 0
	extraSamples       []int
	shortStrip         bool // the last strip's data cut short
	extraCount         int  // added to every byte count
	shortTags, noCount bool // SHORT offsets and counts; no StripByteCounts tag
}

// build returns the file and the offset of its IFD; pixel bytes come from
// rng.
func (s tiffSpec) build(rng *rand.Rand) ([]byte, uint32) {
	var order binary.AppendByteOrder = binary.LittleEndian
	head := []byte("II*\x00\x00\x00\x00\x00")
	if s.big {
		order, head = binary.BigEndian, []byte("MM\x00*\x00\x00\x00\x00")
	}
	bitsPerPixel := 0
	for _, b := range s.bits {
		bitsPerPixel += b
	}
	blockW, blockH, across, down := s.width, s.height, 1, 1
	if s.tileW > 0 {
		blockW, blockH = s.tileW, s.tileL
		across, down = (s.width+blockW-1)/blockW, (s.height+blockH-1)/blockH
	} else if s.rowsPerStrip > 0 && s.rowsPerStrip < s.height {
		blockH = s.rowsPerStrip
		down = (s.height + blockH - 1) / blockH
	}
	file := head
	var offs, counts []uint32
	for j := range down {
		for range across {
			rows := blockH
			if s.tileW == 0 && j == down-1 {
				rows = s.height - j*blockH
			}
			raw := make([]byte, rows*((blockW*bitsPerPixel+7)/8))
			for i := range raw {
				raw[i] = byte(rng.IntN(4) * 60)
			}
			if s.photometric == 3 {
				for i := range raw {
					raw[i] &= byte(1<<s.bits[0] - 1)
				}
			}
			var enc []byte
			switch s.compression {
			case 8:
				var b bytes.Buffer
				z := zlib.NewWriter(&b)
				z.Write(raw)
				z.Close()
				enc = b.Bytes()
			case 32773:
				enc = testkit.PackBits(raw)
			case 5:
				enc = lzwLiterals(raw)
			default:
				enc = raw
			}
			if s.shortStrip && j == down-1 {
				enc = enc[:len(enc)/2]
			}
			offs = append(offs, uint32(len(file)))
			counts = append(counts, uint32(len(enc)+s.extraCount))
			file = append(file, enc...)
		}
	}
	type field struct {
		tag, typ int
		vals     []uint32
	}
	fields := []field{{256, 4, []uint32{uint32(s.width)}}, {257, 4, []uint32{uint32(s.height)}}}
	var bps []uint32
	for _, b := range s.bits {
		bps = append(bps, uint32(b))
	}
	fields = append(fields, field{258, 3, bps}, field{259, 3, []uint32{uint32(s.compression)}}, field{262, 3, []uint32{uint32(s.photometric)}})
	offTag, cntTag, offTyp := 273, 279, 4
	if s.tileW > 0 {
		offTag, cntTag = 324, 325
	}
	if s.shortTags {
		offTyp = 3
	}
	if s.tileW == 0 {
		fields = append(fields, field{offTag, offTyp, offs})
	}
	fields = append(fields, field{277, 3, []uint32{uint32(len(s.bits))}})
	if s.rowsPerStrip > 0 {
		fields = append(fields, field{278, 4, []uint32{uint32(s.rowsPerStrip)}})
	}
	if s.tileW == 0 && !s.noCount {
		fields = append(fields, field{cntTag, offTyp, counts})
	}
	if s.predictor > 0 {
		fields = append(fields, field{317, 3, []uint32{uint32(s.predictor)}})
	}
	if s.photometric == 3 {
		n := 1 << s.bits[0]
		cmap := make([]uint32, 3*n)
		for i := range cmap {
			cmap[i] = uint32(rng.IntN(65536))
		}
		fields = append(fields, field{320, 3, cmap})
	}
	if s.tileW > 0 {
		fields = append(fields, field{322, 4, []uint32{uint32(s.tileW)}}, field{323, 4, []uint32{uint32(s.tileL)}},
			field{offTag, offTyp, offs}, field{cntTag, offTyp, counts})
	}
	if len(s.extraSamples) > 0 {
		var ex []uint32
		for _, e := range s.extraSamples {
			ex = append(ex, uint32(e))
		}
		fields = append(fields, field{338, 3, ex})
	}
	// Out-of-line values first, then the IFD.
	type placed struct {
		field
		at uint32
	}
	var ps []placed
	for _, f := range fields {
		size := map[int]int{3: 2, 4: 4}[f.typ]
		p := placed{field: f}
		if len(f.vals)*size > 4 {
			if len(file)%2 == 1 {
				file = append(file, 0)
			}
			p.at = uint32(len(file))
			for _, v := range f.vals {
				if f.typ == 3 {
					file = order.AppendUint16(file, uint16(v))
				} else {
					file = order.AppendUint32(file, v)
				}
			}
		}
		ps = append(ps, p)
	}
	if len(file)%2 == 1 {
		file = append(file, 0)
	}
	ifd := uint32(len(file))
	file = order.AppendUint16(file, uint16(len(ps)))
	for _, p := range ps {
		file = order.AppendUint16(file, uint16(p.tag))
		file = order.AppendUint16(file, uint16(p.typ))
		file = order.AppendUint32(file, uint32(len(p.vals)))
		size := map[int]int{3: 2, 4: 4}[p.typ]
		switch {
		case len(p.vals)*size > 4:
			file = order.AppendUint32(file, p.at)
		case p.typ == 3:
			var v [4]byte
			for i, x := range p.vals {
				binary.ByteOrder(order.(binary.ByteOrder)).PutUint16(v[2*i:], uint16(x))
			}
			file = append(file, v[:]...)
		default:
			file = order.AppendUint32(file, p.vals[0])
		}
	}
	file = order.AppendUint32(file, 0)
	order.(binary.ByteOrder).PutUint32(file[4:], ifd)
	return file, ifd
}

// maxTestPixels keeps the pages decoded in tests and fuzzing small.
const maxTestPixels = 1 << 20

// compareWithX checks that DecodePage, and the banded decoder at any
// size, give what x/image/tiff gives for the page (image or error), and
// that the banded decoder succeeds only where x/image/tiff does. It
// reports whether the page was decoded in bands.
func compareWithX(t *testing.T, data []byte, ifd uint32) bool {
	t.Helper()
	if cfg, err := xtiff.DecodeConfig(newPageFile(data, ifd, nil)); err == nil && cfg.Width*cfg.Height > maxTestPixels {
		return false // as the callers refuse it before decoding
	}
	want, wantErr := xtiff.Decode(newPageFile(data, ifd, nil))
	got, gotErr := DecodePage(data, ifd, 3)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("DecodePage error %v, x/image/tiff %v", gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodePage image differs from x/image/tiff's")
	}
	if grey, err := decodeGray(data, ifd, 3); err == nil {
		if wantErr != nil {
			t.Fatalf("grey decoder decoded a page x/image/tiff refuses (%v)", wantErr)
		}
		if !reflect.DeepEqual(grey, want) {
			t.Fatalf("grey image %T %v differs from x/image/tiff's %T %v", grey, grey.Bounds(), want, want.Bounds())
		}
	}
	banded, err := decodeBands(data, ifd, 3, 1)
	if err != nil {
		return false
	}
	if wantErr != nil {
		t.Fatalf("bands decoded a page x/image/tiff refuses (%v)", wantErr)
	}
	if !reflect.DeepEqual(banded, want) {
		t.Fatalf("banded image %T %v differs from x/image/tiff's %T %v", banded, banded.Bounds(), want, want.Bounds())
	}
	return true
}

// bounds returns img's bounds, or an empty rectangle for nil.
func bounds(img image.Image) image.Rectangle {
	if img == nil {
		return image.Rectangle{}
	}
	return img.Bounds()
}

// lzwLiterals encodes data as TIFF LZW of literal codes only, 9 bits
// each, with a clear code every 200 literals so that the code width never
// grows.
func lzwLiterals(data []byte) []byte {
	var out []byte
	var acc uint32
	var n uint
	put := func(code uint32) {
		acc = acc<<9 | code
		n += 9
		for n >= 8 {
			out = append(out, byte(acc>>(n-8)))
			n -= 8
		}
	}
	for i, b := range data {
		if i%200 == 0 {
			put(256)
		}
		put(uint32(b))
	}
	put(257)
	if n > 0 {
		out = append(out, byte(acc<<(8-n)))
	}
	return out
}
