package runs

import (
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/internal/band"
)

// LabelRunsStreamed labels a grid of runs while its rows arrive. It is
// [LabelRuns] under a [grid.Stream]: src serves row r only once s.Wait(end)
// has returned for an end past r. It returns LabelRuns' labels and count,
// or s.Wait's error.
func LabelRunsStreamed[K grid.GridKey](shape grid.GridShape, connectivity int, src grid.RunRows[K], dst []uint32, s grid.Stream) (int, error) {
	if err := band.Validate(shape.Width, shape.Height, shape.Depth, connectivity, dst); err != nil {
		return 0, err
	}
	l := newRunLabeler(shape, connectivity, src, dst)
	bands := band.Layers(l.layers, l.layer, s.BandCount(shape))
	return band.RunStreamed(l, bands, dst, shape.Width, s.ThreadCount(), s.WaitFunc(), func() {}, s.Progress)
}
