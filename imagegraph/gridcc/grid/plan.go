package grid

import (
	"github.com/cclabel/cclabel/imagegraph/internal/band"
	"github.com/cclabel/cclabel/internal/parallel"
)

// planBinary returns the labeler of a binary grid at connectivity (valid
// for the shape) reading its rows from src, and its bands: up to count of
// them (fewer on small grids).
func planBinary(shape GridShape, connectivity int, src MaskRows, dst []uint32, count int) (band.Labeler, []band.Band) {
	w, h, d := shape.Width, shape.Height, shape.Depth
	switch connectivity {
	case 8:
		return &binary8Labeler{width: w, height: h, src: src, labels: dst}, pairBands(h, 1, count)
	case 26:
		return &bundleLabeler{width: w, height: h, depth: d, src: src, labels: dst}, pairBands(d, h, count)
	case 18:
		return &pair18Labeler{width: w, height: h, src: src, labels: dst}, band.Layers(d, h, count)
	}
	l := newRowLabeler(shape, connectivity, src, dst)
	return l, band.Layers(l.layers, l.layer, count)
}

// pairBands splits layers of rows each (rows of an image, planes of a
// volume) into up to count bands of whole layer pairs, at least four
// pairs a band.
func pairBands(layers, rows, count int) []band.Band {
	pairs := (layers + 1) / 2
	count = parallel.ClampThreads(count, max(1, pairs/4))
	bands := make([]band.Band, count)
	for b := range bands {
		bands[b].First = min(2*(pairs*b/count), layers) * rows
		bands[b].End = min(2*(pairs*(b+1)/count), layers) * rows
	}
	return bands
}
