package tiff

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/internal/testimages"
	"github.com/cclabel/cclabel/formats/internal/tiffifd"
)

func FuzzTIFFPageCount(f *testing.F) {
	three, _ := testimages.BuildTIFF(binary.LittleEndian, testimages.TwoByTwo, testimages.TwoByTwo, testimages.TwoByTwo)
	loop, ifds := testimages.BuildTIFF(binary.BigEndian, testimages.TwoByTwo, testimages.TwoByTwo)
	binary.BigEndian.PutUint32(loop[ifds[1]+2+9*12:], uint32(ifds[0]))
	f.Add(three)
	f.Add(loop)
	f.Add(testimages.BigTIFF(2))
	f.Add(testimages.EncodeTIFF(f, testimages.GreyPattern(), nil))
	f.Add([]byte("II*\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, size := range []int64{int64(len(data)), int64(len(data) / 2)} {
			n, err := PageCount(bytes.NewReader(data), size)
			if err != nil {
				if msg := err.Error(); !strings.HasPrefix(msg, "formats: tiff: ") || strings.ContainsAny(msg, "\r\n") {
					t.Fatalf("error %q is not one line starting with \"formats: tiff: \"", msg)
				}
				continue
			}
			if n < 1 || int64(n) > size/6 {
				t.Fatalf("%d pages in %d bytes", n, size)
			}
			tiffifd.FirstValue(bytes.NewReader(data), size, tiffifd.TagPhotometric)
		}
	})
}
