package cclabel

import (
	"errors"
	"fmt"
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/slabs"
)

// maxSlabVoxels is the most voxels LabelRaster gives one labeling call:
// the GPU kernels' limit (the CPU labeler's is MaxPixels).
const maxSlabVoxels = imagegraph.MaxKernelVoxels

// spreads reports whether LabelRaster spreads r over several GPUs: the
// labeler has peers (Options.GPUs), r has two planes for each, its
// samples are of a type the kernels take, and r goes to the GPU (always
// under BackendGPU; under BackendAuto when a GPU is usable and r is large
// enough for one).
func (l *Labeler) spreads(r *imagegraph.Raster, rule imagegraph.Rule) bool {
	// Two planes a GPU at least: a seam (two planes) is never spread.
	if len(l.peers) == 0 || r.Depth < 2*(len(l.peers)+1) || !cuda.SupportsRaster(r) {
		return false
	}
	return l.opts.Backend == BackendGPU || l.MayUseGPU() && l.gpuPays(rasterWork(r, rule, false))
}

// labelSlabs labels a 3D raster in memory as slabs of whole planes
// (slabs.Label): one range of planes per labeler (the labeler and its
// peers, each on its own GPU), each range cut into slabs of at most
// l.slabVoxels voxels. The ranges are labeled concurrently, each slab
// into its part of dst by LabelRaster (CPU or GPU), then the slabs are
// joined at their seams in order and relabeled in place to the whole
// raster's labels, which equal one kernel's, bit for bit. Setup, Upload,
// Kernel and Download are the largest of any labeler's sum over its slabs
// (the labelers run side by side); Allocate is the host's allocation plus
// the largest labeler's; Join is the seams' joining and the relabeling on
// the host.
func (l *Labeler) labelSlabs(r *imagegraph.Raster, rule imagegraph.Rule, conn int, dst []uint32, start time.Time, spread bool) (*RasterResult, error) {
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
		dst, filled = parallel.AllocFor[uint32](r.Len(), l.threads)
		defer filled()
		res.Timing.Allocate = time.Since(allocStart)
	}
	labelers := []*Labeler{l}
	if spread {
		labelers = append(labelers, l.peers...)
	}
	// A lane a labeler: each sums its labeler's timings over its slabs
	// (the seams are not counted) and keeps its last slab's backend.
	per := make([]Timing, len(labelers))
	backends := make([]Backend, len(labelers))
	lanes := make([]slabs.LabelFunc, len(labelers))
	for i, lab := range labelers {
		label := lab.slabLabelFunc(rule, conn, func(res *RasterResult) {
			per[i] = per[i].Plus(res.Timing)
			backends[i] = res.Backend
		}, false)
		lanes[i] = func(r *imagegraph.Raster, dst []uint32) (int, error) {
			n, err := label(r, dst)
			if err != nil {
				return 0, laneError{err}
			}
			return n, nil
		}
	}
	out, err := slabs.Label(slabs.NewRasterSource(r, nil), l.slabLabelFunc(rule, conn, nil, false), slabs.Into(dst),
		slabs.Options{Planes: thick, Threads: l.threads, Lanes: lanes})
	if err != nil {
		// A slab's labeling error comes back as it is; the joining's
		// with the package's prefix.
		if le := (laneError{}); errors.As(err, &le) {
			return nil, le.err
		}
		return nil, fmt.Errorf("cclabel: %w", err)
	}
	for _, b := range backends {
		if b != "" {
			res.Backend = b // the last lane's
		}
	}
	res.Labels = &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: out.Count}
	res.Timing.Join = out.Join
	var allocate time.Duration
	for _, t := range per {
		res.Timing.Setup = max(res.Timing.Setup, t.Setup)
		res.Timing.Upload = max(res.Timing.Upload, t.Upload)
		res.Timing.Kernel = max(res.Timing.Kernel, t.Kernel)
		res.Timing.Download = max(res.Timing.Download, t.Download)
		allocate = max(allocate, t.Allocate)
	}
	res.Timing.Allocate += allocate
	res.Timing.Total = time.Since(start)
	return res, nil
}

// laneError is the error of a slab's labeling in labelSlabs.
type laneError struct{ err error }

func (e laneError) Error() string { return e.err.Error() }

// LabelFunc returns a [slabs.LabelFunc] that labels slabs with l. It labels
// as [Labeler.LabelRaster] does (CPU or GPU) under rule at 3D connectivity
// conn, and a raster of one plane at conn's in-plane part ([slabs.InPlane]).
// When ran is not nil it is called with each labeling's result.
func (l *Labeler) LabelFunc(rule imagegraph.Rule, conn int, ran func(*RasterResult)) slabs.LabelFunc {
	return l.slabLabelFunc(rule, conn, ran, true)
}

// slabLabelFunc is LabelFunc; spread lets a slab be spread over the
// labeler's peers (false for the parts of a raster already spread).
func (l *Labeler) slabLabelFunc(rule imagegraph.Rule, conn int, ran func(*RasterResult), spread bool) slabs.LabelFunc {
	return func(r *imagegraph.Raster, dst []uint32) (int, error) {
		c := conn
		if r.Depth == 1 {
			c = slabs.InPlane(conn)
		}
		res, err := l.labelRaster(r, rule, c, dst, spread, nil, nil)
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

// CPULabelFunc returns a [slabs.LabelFunc] that labels on the CPU. It runs on
// threads goroutines (0: GOMAXPROCS) under rule at 3D connectivity conn, and
// labels a raster of one plane at conn's in-plane part ([slabs.InPlane]). It
// serves callers that choose the thread count slab by slab, such as a
// labeling that leaves a core to the read beside it.
func CPULabelFunc(rule imagegraph.Rule, conn, threads int) slabs.LabelFunc {
	return func(r *imagegraph.Raster, dst []uint32) (int, error) {
		c := conn
		if r.Depth == 1 {
			c = slabs.InPlane(conn)
		}
		l, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: c, Threads: threads}, dst)
		if err != nil {
			return 0, err
		}
		return l.Count, nil
	}
}
