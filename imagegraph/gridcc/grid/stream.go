package grid

import (
	"github.com/cclabel/cclabel/imagegraph/internal/band"
	"github.com/cclabel/cclabel/internal/parallel"
)

// Stream has a grid labeled while its rows arrive in order. Rows arrive as
// a file is decompressed ([LabelBinaryStreamed], runs.LabelRunsStreamed).
// The rows are split into bands, by default at least twice as many as
// threads (fewer on grids too small for them); each band's first pass runs
// as soon as its rows are ready, on Threads-1 goroutines (at least one)
// while rows arrive, leaving a core to their producer, and on all Threads
// once every row is. The second pass runs after the last row. The labels
// are those of the labeler's unstreamed form.
type Stream struct {
	// Threads is the number of labeling goroutines; 0 or less means
	// GOMAXPROCS.
	Threads int
	// Bands is the number of bands, at most: 0 or less means one per
	// StreamBandPixels pixels, at least twice Threads. Small grids get
	// fewer (bands hold at least four layers).
	Bands int
	// Wait blocks until rows [0, end) (row y + z*Height) may be read from
	// the source, and fails when they never will be; the labeling then
	// stops with its error. It is called from several goroutines. nil
	// means every row is ready.
	Wait func(end int) error
	// Progress, when set, is told after each band of either pass how
	// many of the bands' passes (twice the bands) are done. It is called
	// from several goroutines, at once and out of order.
	Progress func(done, total int)
}

// StreamBandPixels is the size of the bands of a [Stream] that names no
// count. It is small enough that a band's first pass is a short wait
// after the last row arrives, large enough that the borders cost little.
const StreamBandPixels = 1 << 22

// BandCount returns the number of bands to ask for on a grid of shape.
func (s Stream) BandCount(shape GridShape) int {
	if s.Bands > 0 {
		return s.Bands
	}
	return max(2*s.ThreadCount(), shape.Len()/StreamBandPixels)
}

// ThreadCount returns the number of goroutines (at least 1).
func (s Stream) ThreadCount() int {
	return parallel.ClampThreads(s.Threads, parallel.MaxThreads)
}

// WaitFunc returns s.Wait, or for none a wait that never blocks.
func (s Stream) WaitFunc() func(end int) error {
	if s.Wait == nil {
		return func(int) error { return nil }
	}
	return s.Wait
}

// LabelBinaryStreamed labels a binary grid while its rows arrive. It is
// [LabelBinary] under a [Stream]: src serves row r only once s.Wait(end)
// has returned for an end past r. It returns LabelBinary's labels and count,
// or s.Wait's error.
func LabelBinaryStreamed(shape GridShape, connectivity int, src MaskRows, dst []uint32, s Stream) (int, error) {
	if err := shape.validate(connectivity, dst); err != nil {
		return 0, err
	}
	cache := newMaskCache(src, shape.Width, shape.Height*shape.Depth)
	cache.reuse = true
	l, bands := planBinary(shape, connectivity, cache, dst, s.BandCount(shape))
	n, err := band.RunStreamed(l, bands, dst, shape.Width, s.ThreadCount(), s.WaitFunc(), func() { cache.ready = true }, s.Progress)
	band.PutWords(cache.rows)
	cache.rows = nil
	return n, err
}
