package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/cclabel/cclabel/imagegraph"
)

// RandomRaster returns a width x height x depth binary raster (uint8 0 or
// 1) where each pixel is foreground with probability density.
func RandomRaster(width, height, depth int, density float64, seed uint64) (*imagegraph.Raster, error) {
	n, err := checkSynthetic(width, height, depth, density)
	if err != nil {
		return nil, err
	}
	data := make([]uint8, n)
	// Compare 32-bit draws with an integer threshold: exact, fast, and
	// the same on every machine.
	limit := uint64(density * (1 << 32))
	fillChunks(n, seed, func(rng *rand.Rand, lo, hi int) {
		for i := lo; i < hi; i++ {
			if uint64(rng.Uint32()) < limit {
				data[i] = 1
			}
		}
	})
	return imagegraph.NewRaster(width, height, depth, data)
}

// BlobsRaster returns a binary raster of smooth blobs: uniform noise
// blurred three times with a box of the given radius, thresholded so that
// about density of the pixels are foreground.
func BlobsRaster(width, height, depth int, density float64, radius int, seed uint64) (*imagegraph.Raster, error) {
	n, err := checkSynthetic(width, height, depth, density)
	if err != nil {
		return nil, err
	}
	if radius < 1 {
		return nil, fmt.Errorf("gen: blob radius %d must be at least 1", radius)
	}
	field := make([]float32, n)
	fillChunks(n, seed, func(rng *rand.Rand, lo, hi int) {
		for i := lo; i < hi; i++ {
			field[i] = rng.Float32()
		}
	})
	tmp := make([]float32, max(width, height, depth))
	for range 3 {
		blurAxis(field, tmp, width, height, depth, 0, radius)
		blurAxis(field, tmp, width, height, depth, 1, radius)
		if depth > 1 {
			blurAxis(field, tmp, width, height, depth, 2, radius)
		}
	}
	sorted := slices.Clone(field)
	slices.Sort(sorted)
	cut := sorted[min(n-1, int(float64(n)*(1-density)))]
	data := make([]uint8, n)
	for i, v := range field {
		if v > cut || (density >= 1) {
			data[i] = 1
		}
	}
	return imagegraph.NewRaster(width, height, depth, data)
}

// blurAxis replaces every line of field along axis (0 x, 1 y, 2 z) by its
// moving average over 2*radius+1 samples (clamped at the ends).
func blurAxis(field, tmp []float32, w, h, d, axis, radius int) {
	length, stride := w, 1
	switch axis {
	case 1:
		length, stride = h, w
	case 2:
		length, stride = d, w*h
	}
	line := tmp[:length]
	for start := range w * h * d {
		// start must be the first sample of a line along axis.
		if (axis == 0 && start%w != 0) || (axis == 1 && start/w%h != 0) || (axis == 2 && start/(w*h) != 0) {
			continue
		}
		for i := range length {
			line[i] = field[start+i*stride]
		}
		var sum float32
		for i := -radius; i <= radius; i++ {
			sum += line[clampIndex(i, length)]
		}
		for i := range length {
			field[start+i*stride] = sum / float32(2*radius+1)
			sum += line[clampIndex(i+radius+1, length)] - line[clampIndex(i-radius, length)]
		}
	}
}

func clampIndex(i, n int) int { return min(max(i, 0), n-1) }

// checkSynthetic validates a synthetic raster's size and density.
func checkSynthetic(width, height, depth int, density float64) (int, error) {
	if !(density >= 0 && density <= 1) {
		return 0, fmt.Errorf("gen: density %v must be between 0 and 1", density)
	}
	n, err := imagegraph.PixelCount(width, height, depth)
	if err != nil {
		return 0, fmt.Errorf("gen: %w", err)
	}
	return n, nil
}
