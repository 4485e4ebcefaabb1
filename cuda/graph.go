package cuda

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/ecl"
)

// threadsPerBlock matches the kernels' ThreadsPerBlock.
const threadsPerBlock = 256

// Timing splits a GPU run into its stages.
type Timing struct {
	Upload, Kernel, Download time.Duration
	// Kernels holds each kernel's time, in launch order, when the
	// context's PerKernel is set.
	Kernels []KernelTime
}

// KernelTime is the time of one kernel launch.
type KernelTime struct {
	Name     string
	Duration time.Duration
}

// GraphComponents runs ECL-CC on the GPU and returns each vertex's
// representative (the smallest vertex ID of its component), as
// ecl.ComponentsSerial does, with the time of each stage. The graph must
// be valid and symmetric.
func (c *Context) GraphComponents(g *ecl.Graph) ([]int32, Timing, error) {
	var t Timing
	n := g.NumVertices()
	parent := make([]int32, n)
	if n == 0 {
		return parent, t, nil
	}
	err := c.do(func() error {
		need := uint64(4 * (len(g.Offsets) + len(g.Neighbors) + 2*n))
		if free, err := c.freeMemory(); err != nil {
			return err
		} else if need > free {
			return fmt.Errorf("cuda: the graph needs %d MiB of device memory, %d MiB are free", need>>20, free>>20)
		}
		var bufs [4]deviceBuffer
		defer func() {
			for _, b := range bufs {
				c.free(b)
			}
		}()
		sizes := []int{len(g.Offsets), len(g.Neighbors), n, n}
		for i, s := range sizes {
			b, err := c.alloc(uint64(4 * s))
			if err != nil {
				return err
			}
			bufs[i] = b
		}
		nidx, nlist, nstat, wl := bufs[0], bufs[1], bufs[2], bufs[3]
		start := time.Now()
		if err := c.upload(nidx, g.Offsets); err != nil {
			return err
		}
		if err := c.upload(nlist, g.Neighbors); err != nil {
			return err
		}
		if err := c.sync(); err != nil {
			return err
		}
		t.Upload = time.Since(start)

		nodes := int32(n)
		blocks := c.blocks
		args := []unsafe.Pointer{unsafe.Pointer(&nodes), unsafe.Pointer(&nidx.ptr), unsafe.Pointer(&nlist.ptr), unsafe.Pointer(&nstat.ptr), unsafe.Pointer(&wl.ptr)}
		steps := []kernelStep{
			{"ecl_reset", 1, threadsPerBlock, args[:1]},
			{"ecl_init", blocks, threadsPerBlock, args[:4]},
			{"ecl_compute1", blocks, threadsPerBlock, args},
			{"ecl_compute2", blocks, threadsPerBlock, args},
			{"ecl_compute3", blocks, threadsPerBlock, args},
			{"ecl_flatten", blocks, threadsPerBlock, []unsafe.Pointer{args[0], args[3]}},
		}
		if err := c.runTimed(steps, &t); err != nil {
			return err
		}

		start = time.Now()
		if err := c.download(parent, nstat); err != nil {
			return err
		}
		t.Download = time.Since(start)
		return nil
	})
	if err != nil {
		return nil, t, err
	}
	return parent, t, nil
}
