package cclabel

import (
	"fmt"
	"time"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/bigslice"
	"github.com/cclabel/cclabel/slabs"
)

// maxSlabVoxels is the most voxels one labeling kernel takes: the CPU
// labeler's limit, one below the GPU kernels' (fewer than 2^31-1).
const maxSlabVoxels = imagegraph.MaxPixels - 1

// labelSlabs labels a 3D raster larger than l.slabVoxels in memory: slabs
// of whole planes, each at most l.slabVoxels voxels, labeled one after
// another into their part of dst by LabelRaster (CPU or GPU), joined at
// each seam, then relabeled in place to the whole raster's labels. The
// labels equal one kernel's, bit for bit.
func (l *Labeler) labelSlabs(r *imagegraph.Raster, rule imagegraph.Rule, conn int, dst []uint32, start time.Time) (*RasterResult, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := rule.Validate(); err != nil {
		return nil, err
	}
	if err := imagegraph.ValidConnectivity(conn, true); err != nil {
		return nil, err
	}
	plane := r.Width * r.Height
	// Slabs, and the two-plane seams between them, must fit one kernel.
	thick := l.slabVoxels / plane
	if thick < 2 {
		return nil, fmt.Errorf("cclabel: a %dx%dx%d raster: two of its planes hold more than %d voxels, the most one kernel labels", r.Width, r.Height, r.Depth, l.slabVoxels)
	}
	res := &RasterResult{}
	if len(dst) != r.Len() {
		allocStart := time.Now()
		var filled func()
		dst, filled = bigslice.For[uint32](r.Len(), l.threads)
		defer filled()
		res.Timing.Allocate = time.Since(allocStart)
	}
	var timing Timing
	label := l.SlabLabelFunc(rule, conn, func(s *RasterResult) {
		timing = timing.Plus(s.Timing)
		res.Backend = s.Backend
	})
	joiner, err := slabs.NewJoiner(r.Width, r.Height, label)
	if err != nil {
		return nil, fmt.Errorf("cclabel: %w", err)
	}
	for z0 := 0; z0 < r.Depth; z0 += thick {
		z1 := min(z0+thick, r.Depth)
		slab, err := slabs.Planes(r, z0, z1)
		if err != nil {
			return nil, fmt.Errorf("cclabel: %w", err)
		}
		labels := dst[z0*plane : z1*plane]
		count, err := label(slab, labels)
		if err != nil {
			return nil, err
		}
		if err := joiner.Add(slab, labels, count); err != nil {
			return nil, fmt.Errorf("cclabel: %w", err)
		}
	}
	relabel := joiner.Finish()
	for k, z0 := 0, 0; z0 < r.Depth; k, z0 = k+1, z0+thick {
		z1 := min(z0+thick, r.Depth)
		if err := relabel.Apply(k, dst[z0*plane:z1*plane], l.threads); err != nil {
			return nil, fmt.Errorf("cclabel: %w", err)
		}
	}
	res.Labels = &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: relabel.Count}
	res.Timing.Setup, res.Timing.Upload, res.Timing.Download = timing.Setup, timing.Upload, timing.Download
	res.Timing.Total = time.Since(start)
	// The kernel time holds the slabs' and seams' labeling, the joins and
	// the relabeling: all but the setup, copies and allocations.
	res.Timing.Kernel = res.Timing.Total - res.Timing.Setup - res.Timing.Upload - res.Timing.Download - res.Timing.Allocate - timing.Allocate
	res.Timing.Allocate += timing.Allocate
	return res, nil
}

// SlabLabelFunc returns a slabs.LabelFunc that labels with l (CPU or GPU,
// as LabelRaster chooses) under rule at 3D connectivity conn, a raster of
// one plane at conn's in-plane part (slabs.InPlane). When ran is not nil
// it is called with each labeling's result.
func (l *Labeler) SlabLabelFunc(rule imagegraph.Rule, conn int, ran func(*RasterResult)) slabs.LabelFunc {
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
			ran(res)
		}
		if len(res.Labels.Data) > 0 && &res.Labels.Data[0] != &dst[0] {
			copy(dst, res.Labels.Data) // a labeler that did not take dst
		}
		return res.Labels.Count, nil
	}
}
