package imageio

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/internal/tiffio"
	"github.com/cclabel/cclabel/internal/testkit"
)

func FuzzTIFFPageCount(f *testing.F) {
	three, _ := testkit.BuildTIFF(binary.LittleEndian, testkit.TwoByTwo, testkit.TwoByTwo, testkit.TwoByTwo)
	loop, ifds := testkit.BuildTIFF(binary.BigEndian, testkit.TwoByTwo, testkit.TwoByTwo)
	binary.BigEndian.PutUint32(loop[ifds[1]+2+9*12:], uint32(ifds[0]))
	f.Add(three)
	f.Add(loop)
	f.Add(testkit.BigTIFF(2))
	f.Add(testkit.EncodeTIFF(f, testkit.GreyPattern(), nil))
	f.Add([]byte("II*\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, size := range []int64{int64(len(data)), int64(len(data) / 2)} {
			n, err := TIFFPageCount(bytes.NewReader(data), size)
			if err != nil {
				if msg := err.Error(); !strings.HasPrefix(msg, "formats: tiff: ") || strings.ContainsAny(msg, "\r\n") {
					t.Fatalf("error %q is not one line starting with \"formats: tiff: \"", msg)
				}
				continue
			}
			if n < 1 || int64(n) > size/6 {
				t.Fatalf("%d pages in %d bytes", n, size)
			}
			tiffio.FirstValue(bytes.NewReader(data), size, tiffio.TagPhotometric)
		}
	})
}
