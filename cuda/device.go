package cuda

import (
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
)

// DeviceGrid is an image or volume that already lives in device memory,
// allocated by another library (CuPy, PyTorch), and the device memory its
// labels go to: [Context.LabelDevice] labels it there, with no copy to the
// host.
type DeviceGrid struct {
	// Samples is the device address of Width x Height x Depth samples of
	// Kind, x fastest, then y, then z, without gaps (C order; a Fortran
	// array is the reversed shape). It is 16-byte aligned.
	Samples uintptr
	Kind    imagegraph.SampleKind
	// Width, Height and Depth are the grid's size; an image has Depth 1.
	Width, Height, Depth int
	// Labels is the device address of the labels, an entry per sample in
	// the samples' order: uint32, or uint16 with Narrow. It is 16-byte
	// aligned and does not overlap the samples.
	Labels uintptr
	Narrow bool
	// Stream is the CUDA stream (CUstream) on which the samples were
	// written: its work is waited for before they are read. 0 names none,
	// and the whole context is synchronized instead; 1 is the legacy
	// default stream, 2 the per-thread default stream, as in
	// __cuda_array_interface__.
	Stream uintptr
}

// LabelDevice labels g on the device as [Context.LabelGrid] labels a
// raster: 1..N by first occurrence (x fastest), background 0, the CPU's
// labels, and returns N.
//
// Both addresses must be memory of the context's device. It waits for
// g.Stream before reading the samples and returns once the labels are
// written, so the caller may read them on any stream. It allocates only
// the kernels' scratch: 4 bytes a sample (the parent array) and at most
// half a byte a sample of masks and counts, plus 4 bytes a sample for
// uint16 labels, narrowed from uint32 ones; the context keeps it for the
// next call until it is closed. The kernels are not timed. With more than
// [MaxNarrowCount] components no uint16 labels are written: the caller checks N.
func (c *Context) LabelDevice(g DeviceGrid, conn int, rule imagegraph.Rule) (count int, t Timing, err error) {
	n, err := imagegraph.VoxelCount(g.Width, g.Height, g.Depth)
	if err != nil {
		return 0, t, err
	}
	if g.Samples%16 != 0 || g.Labels%16 != 0 {
		return 0, t, fmt.Errorf("cuda: device samples at %#x and labels at %#x must be 16-byte aligned", g.Samples, g.Labels)
	}
	if err := c.dc.OnDevice(g.Samples, g.Labels); err != nil {
		return 0, t, err
	}
	err = c.dc.Do(func() error {
		if err := c.dc.WaitStream(g.Stream); err != nil {
			return err
		}
		// choosePlan's single-value check, first for an image at 8, which
		// then needs no sample of its row pairs (g.Labels holds the words).
		if _, integer := valuesWidth[gridKernelSuffix[g.Kind]]; rule.Mode == imagegraph.Multilabel && g.Depth == 1 && conn == 8 && integer && n >= 4 {
			bin, _, err := c.choosePlan(g.Kind, g.Width, g.Height, 1, 8, imagegraph.Rule{Mode: imagegraph.Binary}, nil)
			if err != nil {
				return err
			}
			one, err := c.singleValue(bin, []kernelStep{bin.valuesStep(&g.Samples, &g.Labels)}, g.Labels, &t)
			if err != nil {
				return err
			}
			if one {
				rule = imagegraph.Rule{Mode: imagegraph.Binary}
			}
		}
		plan, binary, err := c.choosePlan(g.Kind, g.Width, g.Height, g.Depth, conn, rule, func() float64 { return c.devicePairs(g, rule, conn) })
		if err != nil {
			return err
		}
		// uint32 labels are written in place unless the kernels need more
		// room than that (grids of a few dozen voxels).
		sizes := plan.sizes(binary)
		direct := !g.Narrow && sizes[0] == 4*uint64(n)
		if direct {
			sizes[0] = 0
		}
		bufs, err := c.dc.Scratch("the labels' scratch", sizes...)
		if err != nil {
			return err
		}
		c.untimed = true
		defer func() { c.untimed = false }()
		labels := slices.Clone(bufs)
		if direct {
			labels[0].Ptr = g.Labels
		}
		if err := c.runGrid(plan, binary, g.Samples, labels, &t); err != nil {
			return err
		}
		var tot [1]int32
		if err := c.dc.Download(tot[:], labels[5]); err != nil {
			return err
		}
		switch count = int(uint32(tot[0])); {
		case g.Narrow && count > MaxNarrowCount:
		case g.Narrow:
			err = c.narrow(bufs[0].Ptr, g.Labels, n)
		case !direct:
			err = c.dc.Copy(g.Labels, bufs[0].Ptr, 4*uint64(n))
		}
		return errors.Join(err, c.dc.Sync())
	})
	return count, t, err
}

// narrow launches the narrowing kernel over n uint32 labels at src into n
// uint16 ones at dst (call inside do).
func (c *Context) narrow(src, dst uintptr, n int) error {
	count := int64(n)
	blocks := uint32(max(1, min(ceilDiv(ceilDiv(n, 8), narrowThreads), int(c.blocks))))
	return c.dc.Launch(narrowKernel, blocks, narrowThreads, unsafe.Pointer(&src), unsafe.Pointer(&count), unsafe.Pointer(&dst))
}

// devicePairs is [runPairs] for a grid in device memory, from up to
// samplePixels/8 pixels of row pairs (of each row the first ones), copied
// to the host (call inside do).
func (c *Context) devicePairs(g DeviceGrid, rule imagegraph.Rule, conn int) float64 {
	if g.Height < 2 {
		return 0
	}
	w := min(g.Width, samplePixels/8)
	rows := min(g.Height-1, max(1, samplePixels/8/w))
	buf, err := c.dc.DownloadRowPairs(g.Samples, g.Width*g.Kind.Size(), w*g.Kind.Size(), (g.Height-1)/rows, rows)
	if err != nil {
		return 0 // the run kernels
	}
	data, err := imagegraph.ViewBytes(g.Kind, buf)
	if err != nil {
		return 0
	}
	r := &imagegraph.Raster{Width: w, Height: 2 * rows, Depth: 1, Kind: g.Kind, Data: data}
	return countPairs(r, rule, conn, rows, func(i int) int { return 2*i + 1 })
}
