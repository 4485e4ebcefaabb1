package gen

import (
	"fmt"

	"github.com/cclabel/cclabel/imagegraph"
)

// Kinds are the kinds of synthetic raster a [Synthetic] makes.
var Kinds = []string{"random", "blobs", "cells", "neurites"}

// Synthetic says which synthetic raster to make.
//
// The commands "cclabel gen image" and "cclabel gen volume" say it the
// same way.
type Synthetic struct {
	// Kind is random ([RandomRaster]), blobs ([BlobsRaster]), cells
	// ([CellsRaster]) or neurites ([NeuritesRaster]).
	Kind string
	// Density is the fraction of foreground pixels of random and blobs.
	Density float64
	// Radius is the smoothing radius of blobs, in pixels.
	Radius int
	// Cells is about how many cells a cells raster has, or fragments
	// (labels) a neurites raster.
	Cells int
	// Spacing is the voxel size of a neurites raster in x, y and z, in nm
	// ([NeuritesRasterSpaced]); zero means 4 x 4 x 40.
	Spacing [3]float64
	// Seed seeds the generator: the same seed gives the same raster.
	Seed uint64
	// Progress, when set, is told how far the raster is: done of total
	// units of work (a sample of one pass over the raster each), one call
	// at a time, from any goroutine.
	Progress func(done, total int64)
}

// Raster makes the raster of width×height×depth samples.
//
// An image has depth 1.
func (s Synthetic) Raster(width, height, depth int) (*imagegraph.Raster, error) {
	// Sizes are checked by each generator before the total is used.
	n := int64(width) * int64(height) * int64(depth)
	switch s.Kind {
	case "random":
		return randomRaster(width, height, depth, s.Density, s.Seed, newProgress(s.Progress, n))
	case "blobs":
		return blobsRaster(width, height, depth, s.Density, s.Radius, s.Seed, newProgress(s.Progress, int64(blobsPasses(depth))*n))
	case "cells":
		return cellsRaster(width, height, depth, s.Cells, s.Seed, newProgress(s.Progress, 2*n))
	case "neurites":
		spacing := s.Spacing
		if spacing == [3]float64{} {
			spacing = neuritesSpacing
		}
		return neuritesRaster(width, height, depth, s.Cells, s.Seed, spacing, newProgress(s.Progress, 2*n))
	}
	return nil, fmt.Errorf("gen: kind %q: want random, blobs, cells or neurites", s.Kind)
}

// Note describes the raster's density, or its cell or fragment count for
// cells and neurites.
//
// It reads "density 0.5", say, "about 4000 cells" or "about 2500
// fragments".
func (s Synthetic) Note() string {
	switch s.Kind {
	case "cells":
		return fmt.Sprintf("about %d cells", s.Cells)
	case "neurites":
		return fmt.Sprintf("about %d fragments", s.Cells)
	}
	return fmt.Sprintf("density %.3g", s.Density)
}
