package cclabel

import (
	"fmt"
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
)

// LabelDevice labels a raster where it lives, in the labeler's GPU's
// memory, with no copy to the host ([cuda.Context.LabelDevice]: its rules
// of streams, alignment and scratch memory). The labels are
// [Labeler.LabelRaster]'s; it returns their count. It needs [BackendGPU].
func (l *Labeler) LabelDevice(r cuda.DeviceGrid, rule imagegraph.Rule, conn int) (int, error) {
	if l.opts.Backend != BackendGPU {
		return 0, fmt.Errorf("cclabel: labeling GPU memory needs backend gpu, not %s", l.opts.Backend)
	}
	var n int
	_, err := l.runGPU(true, func(c *cuda.Context, _ time.Duration) (err error) {
		n, _, err = c.LabelDevice(r, conn, rule)
		return err
	})
	return n, err
}
