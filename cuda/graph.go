package cuda

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
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
// be valid and symmetric, with sorted adjacency lists (as ecl.FromEdges
// and the readers of package formats build them; see
// ecl.Graph.SortAdjacency): the init kernel finds each vertex's closest
// smaller neighbour by binary search. An unsorted list is an error.
func (c *Context) GraphComponents(g *ecl.Graph) ([]int32, Timing, error) {
	var t Timing
	n := g.NumVertices()
	parent := make([]int32, n)
	if n == 0 {
		return parent, t, nil
	}
	if v := firstUnsortedList(g); v >= 0 {
		return nil, t, fmt.Errorf("cuda: the adjacency list of vertex %d is not sorted (ecl.Graph.SortAdjacency sorts them)", v)
	}
	if g.NumEdges() > math.MaxInt32 {
		return nil, t, fmt.Errorf("cuda: %d arcs: the GPU graph kernels take at most %d", g.NumEdges(), math.MaxInt32)
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
		if err := c.upload(nidx, narrowOffsets(g.Offsets)); err != nil {
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

// narrowOffsets returns offsets as int32s, which the kernels take: the
// caller checked that the arcs fit. The copy is made on all cores.
func narrowOffsets(offsets []int64) []int32 {
	out := make([]int32, len(offsets))
	workers := min(runtime.NumCPU(), max(1, len(offsets)>>18))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			lo, hi := w*len(offsets)/workers, (w+1)*len(offsets)/workers
			for i, o := range offsets[lo:hi] {
				out[lo+i] = int32(o)
			}
		})
	}
	wg.Wait()
	return out
}

// firstUnsortedList returns a vertex whose adjacency list is not sorted
// ascending, or -1, checking ranges of vertices on all cores.
func firstUnsortedList(g *ecl.Graph) int {
	n := g.NumVertices()
	workers := min(runtime.NumCPU(), max(1, n>>16))
	found := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[w] = -1
			for v := w * n / workers; v < (w+1)*n/workers; v++ {
				if !slices.IsSorted(g.Adjacent(v)) {
					found[w] = v
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, v := range found {
		if v >= 0 {
			return v
		}
	}
	return -1
}
