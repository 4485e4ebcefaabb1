package cclabel

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

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
// raster's labels, which equal one kernel's, bit for bit. Where the GPUs
// can hold them (keepsSlabs), they keep their slabs' labels until the
// seams are joined and then write them final, each GPU its own, so that
// the host neither relabels them nor waits for the faults of the fresh
// array, which are taken meanwhile. Setup, Upload, Kernel and Download
// are the largest of any labeler's sum over its slabs (the labelers run
// side by side); Allocate is the host's allocation plus the largest
// labeler's; Join is the seams' joining and any relabeling on the host.
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
	labelers := []*Labeler{l}
	if spread {
		labelers = append(labelers, l.peers...)
	}
	if len(dst) != r.Len() && l.starting() {
		// The labeling would wait for the GPU's start, its driver probe
		// first (keepsSlabs): the array's pages are faulted in
		// meanwhile.
		allocStart := time.Now()
		dst, _ = readyLabels(r.Len(), false, l.threads)
		res.Timing.Allocate = time.Since(allocStart)
	}
	probeStart := time.Now()
	kept := l.keepsSlabs(r, rule, labelers, thick, spread)
	var probed time.Duration // a wait for the GPU's start, when it labels
	if kept {
		probed = time.Since(probeStart)
	}
	if len(dst) != r.Len() {
		allocStart := time.Now()
		var filled func()
		switch {
		case kept:
			// The GPUs keep the labels until they are final, and
			// write them once: the array's pages are faulted in
			// meanwhile, on the host's cores.
			dst = parallel.Alloc[uint32](r.Len())
			filled = populate(dst, l.threads)
		default:
			dst, filled = parallel.AllocFor[uint32](r.Len(), l.threads)
		}
		defer filled()
		res.Timing.Allocate = time.Since(allocStart)
	}
	// A lane a labeler: each sums its labeler's timings over its slabs
	// (the seams are not counted) and keeps its last slab's backend.
	per := make([]Timing, len(labelers))
	backends := make([]Backend, len(labelers))
	opts := slabs.Options{Planes: thick, Threads: l.threads}
	for i, lab := range labelers {
		ran := func(res *RasterResult) {
			per[i] = per[i].Plus(res.Timing)
			backends[i] = res.Backend
		}
		if kept {
			opts.Kept = append(opts.Kept, lab.keptFunc(rule, conn, ran))
			continue
		}
		label := lab.slabLabelFunc(rule, conn, ran, false)
		opts.Lanes = append(opts.Lanes, func(r *imagegraph.Raster, dst []uint32) (int, error) {
			n, err := label(r, dst)
			if err != nil {
				return 0, laneError{err}
			}
			return n, nil
		})
	}
	out, err := slabs.Label(slabs.NewRasterSource(r, nil), l.slabLabelFunc(rule, conn, nil, false), slabs.Into(dst), opts)
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
		res.Timing.Setup = max(res.Timing.Setup, probed+t.Setup)
		res.Timing.Upload = max(res.Timing.Upload, t.Upload)
		res.Timing.Kernel = max(res.Timing.Kernel, t.Kernel)
		res.Timing.Download = max(res.Timing.Download, t.Download)
		allocate = max(allocate, t.Allocate)
	}
	res.Timing.Allocate += allocate
	res.Timing.Total = time.Since(start)
	return res, nil
}

// keepsSlabs reports whether labelSlabs has the GPUs of labelers keep the
// labels of the slabs of r (thick planes each) on the device until the whole
// raster's numbering is known ([cuda.Context.LabelGridKept]), so that each
// GPU writes its labels once, final, rather than the host relabeling them:
// r goes to the GPU (always under BackendGPU, under BackendAuto when
// spread or when the GPU is usable and pays), and each GPU holds its share
// of the labels and a slab's labeling beside them.
func (l *Labeler) keepsSlabs(r *imagegraph.Raster, rule imagegraph.Rule, labelers []*Labeler, thick int, spread bool) bool {
	if !cuda.SupportsRaster(r) {
		return false
	}
	switch l.opts.Backend {
	case BackendGPU:
	case BackendAuto:
		if !spread && !(l.MayUseGPU() && l.gpuPays(rasterWork(r, rule, false))) {
			return false
		}
	default:
		return false
	}
	plane := uint64(r.Width) * uint64(r.Height)
	share := 4 * uint64(r.Len()) / uint64(len(labelers))
	slab := plane * uint64(min(thick, r.Depth))
	// A slab's labeling holds its samples and about three words a voxel.
	need := share + slab*uint64(r.Kind.Size()) + 12*slab
	for _, lab := range labelers {
		if lab.gpuUsable() != nil {
			return false
		}
		lab.gpuMu.Lock()
		memory := lab.status.Devices[lab.opts.GPU].MemoryBytes
		lab.gpuMu.Unlock()
		if need > memory/10*9 {
			return false
		}
	}
	return true
}

// keptFunc returns the [slabs.KeptFunc] of a lane of labelSlabs on l's GPU:
// it labels a slab there and keeps its labels ([cuda.Context.LabelGridKept]),
// and its fill writes them into the slab's part of the labels. ran is called
// with each labeling's and each fill's timing. Under BackendAuto, once the
// GPU has failed, a slab is labeled on the CPU into dst, kept nowhere.
func (l *Labeler) keptFunc(rule imagegraph.Rule, conn int, ran func(*RasterResult)) slabs.KeptFunc {
	return func(r *imagegraph.Raster, dst []uint32) (int, func([]uint32) error, error) {
		c := conn
		if r.Depth == 1 {
			c = slabs.InPlane(conn)
		}
		start := time.Now()
		var k *cuda.DeviceLabels
		var t Timing
		gpu, err := l.runGPU(true, func(ctx *cuda.Context, setup time.Duration) error {
			var ct cuda.Timing
			var err error
			k, ct, err = ctx.LabelGridKept(r, c, rule, dst)
			t = Timing{Setup: setup, Upload: ct.Upload, Kernel: ct.Kernel, Download: ct.Download}
			return err
		})
		if err != nil {
			return 0, nil, laneError{err}
		}
		if !gpu {
			n, err := l.slabLabelFunc(rule, conn, ran, false)(r, dst)
			if err != nil {
				return 0, nil, laneError{err}
			}
			return n, nil, nil
		}
		t.Total = time.Since(start)
		ran(&RasterResult{Backend: BackendGPU, Timing: t})
		fill := func(table []uint32) error {
			l.gpuMu.Lock()
			defer l.gpuMu.Unlock()
			if table == nil {
				return k.Free()
			}
			start := time.Now()
			_, err := k.Fill(dst, table)
			took := time.Since(start)
			ran(&RasterResult{Backend: BackendGPU, Timing: Timing{Total: took, Download: took}})
			if err != nil {
				return laneError{err}
			}
			return nil
		}
		return k.Count, fill, nil
	}
}

// populate faults in the pages of labels on threads goroutines in the
// background, without changing them ([parallel.Populate] on as many
// parts), and returns the function that stops it and waits.
func populate(labels []uint32, threads int) (stop func()) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(labels))), 4*len(labels))
	parts := max(1, threads)
	stops := make([]func(), parts)
	for i := range parts {
		stops[i] = parallel.Populate(b[i*len(b)/parts : (i+1)*len(b)/parts])
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
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
