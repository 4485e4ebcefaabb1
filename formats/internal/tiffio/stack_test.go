package tiffio

import (
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestSliceGreyToRGB checks the packing of grey slices as colour: 8-bit
// grey as is, 16-bit grey by its high byte, as FromImage packs 16-bit
// colour.
func TestSliceGreyToRGB(t *testing.T) {
	got := sliceGreyToRGB(imagegraph.Samples[uint8]{0, 1, 0x80, 0xff}, 3)
	if want := []uint32{0, 0x010101, 0x808080}; !slices.Equal(got, want) {
		t.Errorf("uint8: %x, want %x", got, want)
	}
	got = sliceGreyToRGB(imagegraph.Samples[uint16]{0x00ff, 0x0100, 0xabcd, 0xffff}, 4)
	if want := []uint32{0, 0x010101, 0xababab, 0xffffff}; !slices.Equal(got, want) {
		t.Errorf("uint16: %x, want %x", got, want)
	}
}
