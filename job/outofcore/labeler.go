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
		return l.SlabLabelFunc(rule, conn, func(res *cclabel.RasterResult) {
			if ran != nil {
				*ran = res.Backend
			}
		})
	}
}
