package cclabel

import (
	"fmt"
	"sync"
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
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
func (l *Labeler) spreads(r *imagegraph.Raster) bool {
	// Two planes a GPU at least: a seam (two planes) is never spread.
	if len(l.peers) == 0 || r.Depth < 2*(len(l.peers)+1) || !cuda.SupportsRaster(r) {
		return false
	}
	return l.opts.Backend == BackendGPU || r.Len() >= GPUMinVoxelsPerCore*l.threads && l.MayUseGPU()
}

// slabJob is one slab of a raster labeled in slabs: planes z0..z1-1,
// labeled by labeler, which counted count labels.
type slabJob struct {
	z0, z1  int
	labeler *Labeler
	count   int
	res     *RasterResult
}

// labelSlabs labels a 3D raster in memory as slabs of whole planes: one
// range of planes per labeler (the labeler and its peers, each on its
// own GPU), each range cut into slabs of at most l.slabVoxels voxels.
// The ranges are labeled concurrently, each slab into its part of dst by
// LabelRaster (CPU or GPU), then the slabs are joined at their seams in
// order and relabeled in place to the whole raster's labels, which equal
// one kernel's, bit for bit. Setup, Upload, Kernel and Download are the
// largest of any labeler's sum over its slabs (the labelers run side by
// side); Allocate is the host's allocation plus the largest labeler's;
// Join is the seams' joining and the relabeling on the host.
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
	jobs := l.slabJobs(r.Depth, thick, spread)
	if err := labelSlabJobs(r, rule, conn, dst, jobs); err != nil {
		return nil, err
	}
	joinStart := time.Now()
	joiner, err := slabs.NewJoiner(r.Width, r.Height, l.slabLabelFunc(rule, conn, nil, false))
	if err != nil {
		return nil, fmt.Errorf("cclabel: %w", err)
	}
	per := map[*Labeler]Timing{}
	for _, j := range jobs {
		slab, err := slabs.Planes(r, j.z0, j.z1)
		if err != nil {
			return nil, fmt.Errorf("cclabel: %w", err)
		}
		if err := joiner.Add(slab, dst[j.z0*plane:j.z1*plane], j.count); err != nil {
			return nil, fmt.Errorf("cclabel: %w", err)
		}
		per[j.labeler] = per[j.labeler].Plus(j.res.Timing)
		res.Backend = j.res.Backend
	}
	relabel := joiner.Finish()
	for k, j := range jobs {
		// The labels come from this package's labelers, so a slab whose
		// labels are already the volume's is left as it is.
		if relabel.Identity(k) {
			continue
		}
		if err := relabel.Apply(k, dst[j.z0*plane:j.z1*plane], l.threads); err != nil {
			return nil, fmt.Errorf("cclabel: %w", err)
		}
	}
	res.Labels = &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: dst, Count: relabel.Count}
	res.Timing.Join = time.Since(joinStart)
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

// slabJobs cuts depth planes into slabs of at most thick planes: one
// range of planes per labeler when spread (the labeler and its peers, as
// many as there are planes), else one range for l.
func (l *Labeler) slabJobs(depth, thick int, spread bool) []*slabJob {
	labelers := []*Labeler{l}
	if spread {
		labelers = append(labelers, l.peers...)
	}
	parts := min(len(labelers), depth)
	var jobs []*slabJob
	for p := range parts {
		lo, hi := p*depth/parts, (p+1)*depth/parts
		for z0 := lo; z0 < hi; z0 += thick {
			jobs = append(jobs, &slabJob{z0: z0, z1: min(z0+thick, hi), labeler: labelers[p]})
		}
	}
	return jobs
}

// labelSlabJobs labels every job's planes of r into its part of dst: the
// jobs of one labeler one after another, those of different labelers
// concurrently. It returns the first error.
func labelSlabJobs(r *imagegraph.Raster, rule imagegraph.Rule, conn int, dst []uint32, jobs []*slabJob) error {
	plane := r.Width * r.Height
	byLabeler := map[*Labeler][]*slabJob{}
	var order []*Labeler
	for _, j := range jobs {
		if byLabeler[j.labeler] == nil {
			order = append(order, j.labeler)
		}
		byLabeler[j.labeler] = append(byLabeler[j.labeler], j)
	}
	errs := make([]error, len(order))
	var wg sync.WaitGroup
	for i, lab := range order {
		wg.Go(func() {
			for _, j := range byLabeler[lab] {
				label := lab.slabLabelFunc(rule, conn, func(res *RasterResult) { j.res = res }, false)
				slab, err := slabs.Planes(r, j.z0, j.z1)
				if err == nil {
					j.count, err = label(slab, dst[j.z0*plane:j.z1*plane])
				}
				if err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// SlabLabelFunc returns a slabs.LabelFunc that labels with l (CPU or GPU,
// as LabelRaster chooses) under rule at 3D connectivity conn, a raster of
// one plane at conn's in-plane part (slabs.InPlane). When ran is not nil
// it is called with each labeling's result.
func (l *Labeler) SlabLabelFunc(rule imagegraph.Rule, conn int, ran func(*RasterResult)) slabs.LabelFunc {
	return l.slabLabelFunc(rule, conn, ran, true)
}

// slabLabelFunc is SlabLabelFunc; spread lets a slab be spread over the
// labeler's peers (false for the parts of a raster already spread).
func (l *Labeler) slabLabelFunc(rule imagegraph.Rule, conn int, ran func(*RasterResult), spread bool) slabs.LabelFunc {
	return func(r *imagegraph.Raster, dst []uint32) (int, error) {
		c := conn
		if r.Depth == 1 {
			c = slabs.InPlane(conn)
		}
		res, err := l.labelRaster(r, rule, c, dst, spread, nil)
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
