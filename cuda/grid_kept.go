package cuda

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/imagegraph"
)

// DeviceLabels are a grid's labels kept in device memory by
// [Context.LabelGridKept], until [DeviceLabels.Fill] writes them to the host
// through a table or [DeviceLabels.Free] drops them.
//
// Its methods use the context that labeled the grid: they must not run
// concurrently with that context's other methods.
type DeviceLabels struct {
	c   *Context
	buf driver.Buffer
	n   int
	// Count is the number of components: the labels are 1..Count.
	Count int
}

// LabelGridKept labels r as [Context.LabelGridInto] does but keeps its
// labels on the device. It downloads only the labels of r's first and last
// planes into dst, which has r.Len() entries; the rest of dst is left as it
// is. A caller that numbers the labels of several grids together (the slabs
// of a volume) then writes each grid's labels once, mapped to their final
// numbers ([DeviceLabels.Fill]), instead of downloading and relabeling them.
func (c *Context) LabelGridKept(r *imagegraph.Raster, conn int, rule imagegraph.Rule, dst []uint32) (*DeviceLabels, Timing, error) {
	if len(dst) != r.Len() {
		return nil, Timing{}, fmt.Errorf("cuda: %d labels for a grid of %d voxels", len(dst), r.Len())
	}
	k := &DeviceLabels{}
	_, t, err := c.labelGrid(r, conn, rule, dst, nil, false, k)
	if err != nil {
		return nil, t, err
	}
	return k, t, nil
}

// keepLabels fills k with a labeled grid's n labels in the device buffer
// out and its count from total, and downloads the labels of its first and
// last planes (plane labels each) into dst (call inside do).
func (c *Context) keepLabels(out, total driver.Buffer, n, plane int, dst []uint32, k *DeviceLabels) error {
	var tot [1]int32
	if err := c.dc.Download(tot[:], total); err != nil {
		return err
	}
	*k = DeviceLabels{c: c, buf: out, n: n, Count: int(uint32(tot[0]))}
	if n == 0 {
		return nil
	}
	plane = min(plane, n)
	first := unsafe.Slice((*int32)(unsafe.Pointer(&dst[0])), plane)
	last := unsafe.Slice((*int32)(unsafe.Pointer(&dst[n-plane])), plane)
	if err := c.dc.Download(first, out); err != nil {
		return err
	}
	return c.dc.Download(last, driver.Buffer{Ptr: out.Ptr + uintptr(4*(n-plane)), Bytes: uint64(4 * plane)})
}

// errFreed is the error of a [DeviceLabels] used after Fill or Free.
var errFreed = errors.New("cuda: device labels used after Fill or Free")

// Fill writes the kept labels into dst, which has an entry per voxel,
// mapped through table: dst[i] is table[l] for voxel i's label l. It then
// frees them, and returns the time the copy took. A label past the table
// is an error.
func (k *DeviceLabels) Fill(dst []uint32, table []uint32) (time.Duration, error) {
	if k.c == nil {
		return 0, errFreed
	}
	if len(dst) != k.n {
		return 0, fmt.Errorf("cuda: %d entries for %d kept labels", len(dst), k.n)
	}
	if len(table) <= k.Count {
		return 0, fmt.Errorf("cuda: a table of %d entries for %d kept labels 0..%d", len(table), k.n, k.Count)
	}
	var took time.Duration
	err := k.c.dc.Do(func() error {
		start := time.Now()
		err := k.c.dc.DownloadStagedMapped(dst, k.buf.Ptr, table)
		took = time.Since(start)
		return err
	})
	return took, errors.Join(err, k.Free())
}

// Free frees the kept labels' device memory; later calls do nothing.
func (k *DeviceLabels) Free() error {
	if k.c == nil {
		return nil
	}
	c := k.c
	k.c = nil
	return c.dc.Do(func() error {
		c.dc.Free(k.buf)
		return nil
	})
}
