package gen

import (
	"reflect"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func TestSyntheticMakesTheKindAsked(t *testing.T) {
	random, _ := RandomRaster(30, 20, 4, 0.4, 9)
	blobs, _ := BlobsRaster(30, 20, 4, 0.4, 2, 9)
	cells, _ := CellsRaster(30, 20, 4, 25, 9)
	neurites, _ := NeuritesRaster(30, 20, 4, 25, 9)
	for _, c := range []struct {
		kind string
		want *imagegraph.Raster
		note string
	}{
		{"random", random, "density 0.4"},
		{"blobs", blobs, "density 0.4"},
		{"cells", cells, "about 25 cells"},
		{"neurites", neurites, "about 25 fragments"},
	} {
		s := Synthetic{Kind: c.kind, Density: 0.4, Radius: 2, Cells: 25, Seed: 9}
		r, err := s.Raster(30, 20, 4)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r, c.want) {
			t.Errorf("%s: not the raster of its generator", c.kind)
		}
		if s.Note() != c.note {
			t.Errorf("%s: note %q, want %q", c.kind, s.Note(), c.note)
		}
	}
	if n := (Synthetic{Kind: "random", Density: 0.123456}).Note(); n != "density 0.123" {
		t.Errorf("note %q", n)
	}
	if _, err := (Synthetic{Kind: "voronoi"}).Raster(4, 4, 1); err == nil || err.Error() != `gen: kind "voronoi": want random, blobs, cells or neurites` {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := (Synthetic{Kind: "random", Density: 2}).Raster(4, 4, 1); err == nil {
		t.Error("density 2 accepted")
	}
}
