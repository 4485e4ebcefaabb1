package outofcore

import (
	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/slabs"
)

// SlabLabeler returns an Options.Label that labels slabs with l at 3D
// connectivity conn: on the GPU when l takes it (BackendGPU, or
// BackendAuto with a usable GPU and slabs large enough), else on the CPU.
// When ran is not nil it is set to the backend of each slab in turn (the
// slabs are labeled one after another).
func SlabLabeler(l *cclabel.Labeler, conn int, ran *cclabel.Backend) func(rule imagegraph.Rule) slabs.LabelFunc {
	return func(rule imagegraph.Rule) slabs.LabelFunc {
		return func(r *imagegraph.Raster, dst []uint32) (int, error) {
			c := conn
			if r.Depth == 1 {
				c = slabs.InPlane(conn)
			}
			res, err := l.LabelRaster(r, rule, c, dst)
			if err != nil {
				return 0, err
			}
			if ran != nil {
				*ran = res.Backend
			}
			if len(res.Labels.Data) > 0 && &res.Labels.Data[0] != &dst[0] {
				copy(dst, res.Labels.Data) // a labeler that did not take dst
			}
			return res.Labels.Count, nil
		}
	}
}
