package cuda

import (
	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
)

// MaxNarrowCount is the largest component count whose labels
// [Context.LabelGridNarrow] downloads as uint16.
const MaxNarrowCount = 65535

// narrowKernel narrows uint32 labels to uint16 (kernels/ecl_grid_narrow.cu).
const narrowKernel = "grid_narrow_u16"

// GridLabels are a grid's labels as [Context.LabelGridNarrow] returns them.
//
// They are in Labels (uint32), or in Narrow (uint16, the same values) when
// they were downloaded narrowed; the other slice is nil.
type GridLabels struct {
	Labels []uint32
	Narrow []uint16
	// Count is the number of components: the labels are 1..Count.
	Count int
}

// LabelGridNarrow is [Context.LabelGridInto] for callers that can take
// uint16 labels.
//
// When the grid has at most [MaxNarrowCount] components, its labels are
// narrowed on the device and downloaded as uint16 — half the copy and half
// the host memory — into dst16 when it has r.Len() entries (else a fresh
// array), and [GridLabels].Labels is nil. With more components, or kernels
// without the narrowing kernel (an older fatbin through CCLABEL_KERNELS),
// they come back as uint32 in dst as LabelGridInto gives them. Either way
// they are the CPU's labels.
func (c *Context) LabelGridNarrow(r *imagegraph.Raster, conn int, rule imagegraph.Rule, dst []uint32, dst16 []uint16) (GridLabels, Timing, error) {
	return c.labelGrid(r, conn, rule, dst, dst16, true, nil)
}

// canNarrow reports whether the loaded kernels have the narrowing kernel
// (call inside do).
func (c *Context) canNarrow() bool {
	_, err := c.dc.Function(narrowKernel)
	return err == nil
}

// downloadLabels copies a labeled grid's n labels from the device buffer
// out to the host and reads its component count from total (call inside
// do). With narrow and a count of at most [MaxNarrowCount] the labels are
// first narrowed into the device buffer spare (at least 2n bytes, free
// once the kernels are done) and come back as uint16, in dst16 when it
// has n entries; otherwise as uint32, in dst when it has n entries. Fresh
// arrays ask for huge pages where the kernel allows: copying out into
// them is faster than into fresh small pages.
func (c *Context) downloadLabels(out, spare, total driver.Buffer, n int, dst []uint32, dst16 []uint16, narrow bool) (GridLabels, error) {
	var g GridLabels
	var tot [1]int32
	if err := c.dc.Download(tot[:], total); err != nil {
		return g, err
	}
	g.Count = int(uint32(tot[0]))
	if narrow && g.Count <= MaxNarrowCount && c.canNarrow() {
		if err := c.narrow(out.Ptr, spare.Ptr, n); err != nil {
			return g, err
		}
		labels := dst16
		if len(labels) != n {
			labels = parallel.Alloc[uint16](n)
		}
		// The copy waits for the kernel: both run on the default stream.
		if err := driver.DownloadSlice(c.dc, labels, spare.Ptr); err != nil {
			return g, err
		}
		g.Narrow = labels
		return g, nil
	}
	labels := dst
	if len(labels) != n {
		labels = parallel.Alloc[uint32](n)
	}
	if err := driver.DownloadSlice(c.dc, labels, out.Ptr); err != nil {
		return g, err
	}
	g.Labels = labels
	return g, nil
}

// narrowThreads is the narrowing kernel's block size (its launch bounds).
const narrowThreads = 256
