package gen

import (
	"fmt"
	"math/rand/v2"

	"github.com/cclabel/cclabel/imagegraph"
)

// RandomRaster returns a binary raster of independent random pixels.
//
// The raster is width x height x depth uint8 samples, 0 or 1; each pixel
// is foreground (1) with probability density.
func RandomRaster(width, height, depth int, density float64, seed uint64) (*imagegraph.Raster, error) {
	return randomRaster(width, height, depth, density, seed, nil)
}

// randomRaster is [RandomRaster] telling p (which may be nil) its samples.
func randomRaster(width, height, depth int, density float64, seed uint64, p *progress) (*imagegraph.Raster, error) {
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
		p.add(hi - lo)
	})
	return imagegraph.NewRaster(width, height, depth, data)
}

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
