package gen

import (
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestRandomStreamIsRandomRaster: the streamed samples are RandomRaster's
// on sizes around the chunk and batch boundaries.
func TestRandomStreamIsRandomRaster(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {7, 5, 3}, {256, 256, 1}, {257, 256, 3}, {300, 200, 50}, {512, 512, 40}} {
		want, err := RandomRaster(s[0], s[1], s[2], 0.3, 9)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint8
		calls := 0
		err = RandomStream(s[0], s[1], s[2], 0.3, 9, func(b []uint8) error {
			calls++
			got = append(got, b...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want.Data.(imagegraph.Samples[uint8])) {
			t.Fatalf("%v: the stream (%d calls) differs from RandomRaster", s, calls)
		}
	}
	if err := RandomStream(0, 1, 1, 0.3, 1, func([]uint8) error { return nil }); err == nil {
		t.Error("a zero side was accepted")
	}
}
