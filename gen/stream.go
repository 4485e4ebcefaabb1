package gen

import (
	"fmt"

	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/cclabel/cclabel/imagegraph"
)

// RandomStream produces the samples of [RandomRaster] in order, without
// holding the volume.
//
// It makes the samples of RandomRaster(width, height, depth, density,
// seed) a batch of chunks at a time: emit receives consecutive runs of
// samples (uint8 0 or 1) in a buffer it must not keep (the next batch
// reuses it). The volume may hold more than [imagegraph.MaxPixels]
// samples, for files labeled out of core; a plane may not (nor two: a
// seam), so that it can be labeled.
func RandomStream(width, height, depth int, density float64, seed uint64, emit func([]uint8) error) error {
	if !(density >= 0 && density <= 1) {
		return fmt.Errorf("gen: density %v must be between 0 and 1", density)
	}
	if _, err := imagegraph.PixelCount(width, height, 2); err != nil || depth < 1 {
		return fmt.Errorf("gen: size %dx%dx%d: every side must be at least 1 and two planes at most %d voxels", width, height, depth, imagegraph.MaxPixels)
	}
	n := int64(width) * int64(height) * int64(depth)
	limit := uint64(density * (1 << 32))
	workers := runtime.GOMAXPROCS(0)
	batch := int64(workers) * 64 * chunkSize
	buf := make([]uint8, min(n, batch))
	for lo := int64(0); lo < n; lo += batch {
		part := buf[:min(batch, n-lo)]
		chunks := (len(part) + chunkSize - 1) / chunkSize
		var wg sync.WaitGroup
		for w := range min(workers, chunks) {
			wg.Go(func() {
				for k := w; k < chunks; k += workers {
					// The chunk's generator is RandomRaster's: seeded by the
					// chunk's index in the whole volume.
					rng := rand.New(rand.NewPCG(seed, uint64(lo/chunkSize)+uint64(k)))
					for i := k * chunkSize; i < min((k+1)*chunkSize, len(part)); i++ {
						v := uint8(0)
						if uint64(rng.Uint32()) < limit {
							v = 1
						}
						part[i] = v
					}
				}
			})
		}
		wg.Wait()
		if err := emit(part); err != nil {
			return err
		}
	}
	return nil
}
