package imageio

import (
	"encoding/binary"
	"reflect"
	"testing"

	xtiff "golang.org/x/image/tiff"

	"github.com/cclabel/cclabel/formats/internal/tiffio"
	"github.com/cclabel/cclabel/internal/testkit"
)

// TestDecodePagesInOrder checks that pages decoded a window at a time in
// parallel are golang.org/x/image/tiff's, in page order, errors included,
// whatever order they are asked for in.
func TestDecodePagesInOrder(t *testing.T) {
	var pages []testkit.TIFFPage
	for k := range 11 {
		p := tiffStackPage(7, 5, 10*k)
		if k%3 == 1 {
			p.Compression, p.Strip = 32773, testkit.PackBits(p.Strip)
		}
		if k == 8 {
			p.Strip = p.Strip[:3] // too short: an error
		}
		pages = append(pages, p)
	}
	data, ifds := testkit.BuildTIFF(binary.LittleEndian, pages...)
	l := tiffio.Layout{Order: binary.LittleEndian}
	offsets := make([]uint32, len(ifds))
	for i, off := range ifds {
		offsets[i] = uint32(off)
	}
	decoded := decodePages(data, offsets)
	for _, k := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3, 0} {
		want, wantErr := xtiff.Decode(newTIFFStackPageReader(data, l, uint64(ifds[k])))
		got, err := decoded(k)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) || !reflect.DeepEqual(got, want) {
			t.Fatalf("page %d: %v, %v; want %v", k, got, err, wantErr)
		}
	}
}
