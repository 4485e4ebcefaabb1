package gen

import (
	"fmt"

	"github.com/cclabel/cclabel/imagegraph"
)

// Kinds are the kinds of synthetic raster a Synthetic makes.
var Kinds = []string{"random", "blobs", "cells"}

// Synthetic says which synthetic raster to make, as "cclabel gen image"
// and "cclabel gen volume" do.
type Synthetic struct {
	// Kind is random (RandomRaster), blobs (BlobsRaster) or cells
	// (CellsRaster).
	Kind string
	// Density is the fraction of foreground pixels of random and blobs.
	Density float64
	// Radius is the smoothing radius of blobs, in pixels.
	Radius int
	// Cells is about how many cells a cells raster has.
	Cells int
	// Seed seeds the generator: the same seed gives the same raster.
	Seed uint64
}

// Raster makes the raster, width×height×depth (depth 1 for an image).
func (s Synthetic) Raster(width, height, depth int) (*imagegraph.Raster, error) {
	switch s.Kind {
	case "random":
		return RandomRaster(width, height, depth, s.Density, s.Seed)
	case "blobs":
		return BlobsRaster(width, height, depth, s.Density, s.Radius, s.Seed)
	case "cells":
		return CellsRaster(width, height, depth, s.Cells, s.Seed)
	}
	return nil, fmt.Errorf("gen: kind %q: want random, blobs or cells", s.Kind)
}

// Note describes the raster's density, or its cell count for cells:
// "density 0.5", "about 4000 cells".
func (s Synthetic) Note() string {
	if s.Kind == "cells" {
		return fmt.Sprintf("about %d cells", s.Cells)
	}
	return fmt.Sprintf("density %.3g", s.Density)
}
