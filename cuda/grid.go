package cuda

import (
	"cmp"
	"fmt"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/imagegraph"
)

// gridShape matches the kernels' GridShape.
type gridShape struct {
	w, h, d, conn, rule, pad int32
	threshold, slope, inter  float64
}

// gridKernelSuffix names the kernels for a sample kind.
var gridKernelSuffix = map[imagegraph.SampleKind]string{
	imagegraph.Uint8: "u8", imagegraph.Uint16: "u16", imagegraph.Int16: "i16",
	imagegraph.Uint32: "u32", imagegraph.RGB: "u32", imagegraph.Int32: "i32", imagegraph.Float32: "f32",
}

// SupportsRaster reports whether the grid kernels take the raster's
// sample type.
//
// They take uint8, uint16, int16, uint32 (and packed RGB), int32 and
// float32.
func SupportsRaster(r *imagegraph.Raster) bool {
	_, ok := gridKernelSuffix[r.Kind]
	return ok
}

// gridRule maps a foreground rule to the kernels' numbering.
func gridRule(rule imagegraph.Rule) int32 {
	switch {
	case rule.Mode == imagegraph.Multilabel:
		return 0
	case rule.Mode == imagegraph.Binary:
		return 1
	case rule.Invert:
		return 3
	}
	return 2
}

// LabelGrid labels an image or volume on the GPU and returns its labels.
//
// An image has depth 1. The connectivity is 4 or 8 in 2D, 6, 18 or 26 in
// 3D, and rule decides which samples join. The labels are 1..N by first
// occurrence (x fastest), background 0 — the CPU's labels, bit for bit —
// and LabelGrid returns N as well. See [SupportsRaster] for the sample
// types.
func (c *Context) LabelGrid(r *imagegraph.Raster, conn int, rule imagegraph.Rule) ([]uint32, int, Timing, error) {
	return c.LabelGridInto(r, conn, rule, nil)
}

// LabelGridInto is [Context.LabelGrid] writing the labels into dst.
//
// It writes into dst when it has r.Len() entries (its contents do not
// matter), so that a run of many files can reuse one buffer; otherwise it
// allocates the labels.
func (c *Context) LabelGridInto(r *imagegraph.Raster, conn int, rule imagegraph.Rule, dst []uint32) ([]uint32, int, Timing, error) {
	g, t, err := c.labelGrid(r, conn, rule, dst, nil, false, nil)
	return g.Labels, g.Count, t, err
}

// labelGrid is [Context.LabelGridInto], with narrow
// [Context.LabelGridNarrow], and with keep [Context.LabelGridKept]: the
// labels stay on the device in keep, and only the first and last planes are
// downloaded into dst.
func (c *Context) labelGrid(r *imagegraph.Raster, conn int, rule imagegraph.Rule, dst []uint32, dst16 []uint16, narrow bool, keep *DeviceLabels) (GridLabels, Timing, error) {
	var t Timing
	var g GridLabels
	if err := r.Validate(); err != nil {
		return g, t, err
	}
	plan, binary, err := c.choosePlan(r.Kind, r.Width, r.Height, r.Depth, conn, rule, func() float64 { return runPairs(r, rule, conn) })
	if err != nil {
		return g, t, err
	}
	n := r.Len()
	err = c.dc.Do(func() error {
		bufs, err := c.dc.AllocAll("the grid", append([]uint64{uint64(len(r.Data.Bytes()))}, plan.sizes(binary)...)...)
		if err != nil {
			return err
		}
		defer func() { c.dc.Free(bufs...) }()
		in, out, parent, total := bufs[0], bufs[1], bufs[2], bufs[6]
		start := time.Now()
		if err := driver.UploadSlice(c.dc, in.Ptr, r.Data.Bytes()); err != nil {
			return err
		}
		if err := c.dc.Sync(); err != nil {
			return err
		}
		t.Upload = time.Since(start)
		if err := c.runGrid(plan, binary, in.Ptr, bufs[1:], &t); err != nil {
			return err
		}
		if c.measure != nil { // measured on the device: no download unless handed back
			if done, err := c.measure(out, total); err != nil || done {
				return err
			}
		}
		start = time.Now()
		if keep != nil {
			if err = c.keepLabels(out, total, n, r.Width*r.Height, dst, keep); err == nil {
				bufs[1] = driver.Buffer{} // kept, not freed
			}
		} else {
			g, err = c.downloadLabels(out, parent, total, n, dst, dst16, narrow)
		}
		t.Download = time.Since(start)
		return err
	})
	if err != nil {
		return GridLabels{}, t, err
	}
	return g, t, nil
}

// choosePlan checks a grid's shape, connectivity and sample kind and plans
// its kernels; with binary the plan of the block kernels that grid_values
// may choose instead. pairs estimates runPairs, read only for images whose
// kernels it decides.
func (c *Context) choosePlan(kind imagegraph.SampleKind, width, height, depth, conn int, rule imagegraph.Rule, pairs func() float64) (plan, binary *gridPlan, err error) {
	suffix, ok := gridKernelSuffix[kind]
	if !ok {
		return nil, nil, fmt.Errorf("cuda: the grid kernels do not take %s samples", kind)
	}
	n, err := imagegraph.VoxelCount(width, height, depth)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case depth == 1 && (conn == 4 || conn == 8):
	case depth > 1 && (conn == 6 || conn == 18 || conn == 26):
	default:
		return nil, nil, fmt.Errorf("cuda: connectivity %d does not fit a %dx%dx%d grid", conn, width, height, depth)
	}
	if n > imagegraph.MaxKernelVoxels {
		return nil, nil, fmt.Errorf("cuda: %dx%dx%d voxels: the grid kernels take at most %d (larger rasters are labeled in slabs: cclabel.Labeler.LabelRaster)", width, height, depth, imagegraph.MaxKernelVoxels)
	}
	shape := gridShape{w: int32(width), h: int32(height), d: int32(depth), conn: int32(conn), rule: gridRule(rule),
		threshold: rule.Threshold, slope: cmp.Or(rule.Slope, 1), inter: rule.Inter}
	// Binary and threshold rules at 8, 26 and 18 take the block kernels (a
	// 2x2(x2) block is one vertex, 2x2x1 at 18); other volumes the run
	// kernels (a vertex per run of a row), other images too where their
	// rows' runs join few others (runPairs), else the tile kernels (a
	// vertex per pixel): the fastest where measured (docs/gpu.md; the
	// value-block kernels, a vertex per value of a 2x2x2 block, are slower
	// everywhere).
	blocks := conn == 8 || conn == 26 || conn == 18
	kernels := tileKernels
	switch {
	case c.force == valueBlockKernels && conn == 26, c.force == tileKernels, c.force == runKernels:
		kernels, blocks = c.force, false
	case blocks && rule.Mode != imagegraph.Multilabel:
		kernels = blockKernels
	case depth > 1, pairs() < runPairsMax:
		kernels = runKernels
	}
	plan = c.planGrid(&shape, suffix, kernels)
	// A multilabel grid of integer samples at 8, 26 or 18 whose nonzero
	// samples share one value (a 0/1 mask, say) has the binary rule's
	// labels, and the block kernels take that: grid_values checks on the
	// device first. (At 4 and 6 both rules take the same kernels, at the
	// same speed.)
	if _, integer := valuesWidth[suffix]; rule.Mode == imagegraph.Multilabel && blocks && integer {
		binShape := shape
		binShape.rule = gridRule(imagegraph.Rule{Mode: imagegraph.Binary})
		binary = c.planGrid(&binShape, suffix, blockKernels)
	}
	return plan, binary, nil
}

// sizes returns the bytes of the buffers [Context.runGrid] takes for p, or
// for p or binary: labels, parent, counts, sums, tile representatives,
// total, and with binary grid_values' two words.
func (p *gridPlan) sizes(binary *gridPlan) []uint64 {
	most := func(f func(*gridPlan) int) uint64 {
		if binary != nil {
			return 4 * uint64(max(f(p), f(binary)))
		}
		return 4 * uint64(f(p))
	}
	sizes := []uint64{most((*gridPlan).labelEntries), 4 * uint64(p.n), most((*gridPlan).countEntries),
		most((*gridPlan).sumsEntries), most((*gridPlan).tileEntries), most((*gridPlan).totalEntries)}
	if binary != nil {
		sizes = append(sizes, 8)
	}
	return sizes
}

// runGrid labels the grid of samples at in with plan, or binary when
// grid_values finds a single value, into bufs as [gridPlan.sizes] gives
// them (call inside do). The labels are in bufs[0], the count in the
// first word of bufs[5].
func (c *Context) runGrid(plan, binary *gridPlan, in uintptr, bufs []driver.Buffer, t *Timing) error {
	out, parent, counts, sums, tileReps, total := bufs[0], bufs[1], bufs[2], bufs[3], bufs[4], bufs[5]
	steps := plan.steps(&in, &parent.Ptr, &out.Ptr, &counts.Ptr, &sums.Ptr, &tileReps.Ptr, &total.Ptr)
	if binary != nil {
		// The run kernels' first launch (runs_count) finds the two
		// words as it reads the samples of more than a byte; others
		// run grid_values (on bytes it costs a third of runs_count,
		// which one-value rasters would run for nothing).
		first := []kernelStep{binary.valuesStep(&in, &bufs[6].Ptr)}
		if plan.kernels == runKernels && valuesWidth[plan.suffix] > 1 {
			plan.values = bufs[6].Ptr
			first, steps = steps[:1], steps[1:]
		}
		one, err := c.singleValue(binary, first, bufs[6].Ptr, t)
		if err != nil {
			return err
		}
		if one {
			steps = binary.steps(&in, &parent.Ptr, &out.Ptr, &counts.Ptr, &sums.Ptr, &tileReps.Ptr, &total.Ptr)
		}
	}
	return c.runTimed(steps, t)
}

// singleValue reports whether the nonzero samples of p's grid share one
// value (or there are none): steps (grid_values, or runs_count with its
// values argument set) fill the two words at words, which
// [Context.runRead] clears and reads back (call inside do). It adds its
// time to t: it is part of the labeling.
func (c *Context) singleValue(p *gridPlan, steps []kernelStep, words uintptr, t *Timing) (bool, error) {
	w, err := c.runRead(steps, words, t)
	if err != nil {
		return false, err
	}
	// The low word is the largest -v of the nonzero patterns v at the
	// samples' width, the high word the largest v: one value when -low is
	// high.
	lo, hi := uint32(w), uint32(w>>32)
	mask := uint32(1)<<(8*valuesWidth[p.suffix]) - 1
	return hi == 0 || -lo&mask == hi, nil
}

// valuesStep is grid_values' launch over the samples in, into words.
func (p *gridPlan) valuesStep(in, words *uintptr) kernelStep {
	blocks := uint32(max(1, min(ceilDiv(int(p.n)*valuesWidth[p.suffix], 16*valuesThreads), int(p.fill))))
	return kernelStep{"grid_values_" + p.suffix, blocks, valuesThreads, []unsafe.Pointer{unsafe.Pointer(in), unsafe.Pointer(&p.n), unsafe.Pointer(words)}}
}
