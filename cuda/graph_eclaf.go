package cuda

import (
	"fmt"
	"unsafe"
)

// eclafBatch is the number of ECLaf passes queued before the host reads
// their flags: a pass whose predecessor stored nothing returns at once, so
// a converged run pays a few empty launches, not a round trip per pass.
const eclafBatch = 3

// eclafMaxPasses bounds ECLaf's passes (the flags buffer's length). A
// pass loses hooks only to concurrent stores to one root, so runs
// converge in a few passes.
const eclafMaxPasses = 64

// runECLaf runs ECLaf (kernels/ecl_graph_eclaf.cu) in batches of
// eclafBatch passes, each batch ending with a flatten, until a pass
// stores nothing; t.Kernel sums the batches (call inside do).
func (c *Context) runECLaf(nodes int32, b *graphBuffers, t *Timing) error {
	blocks := c.blocks
	count := int32(eclafMaxPasses)
	graph := []unsafe.Pointer{unsafe.Pointer(&nodes), unsafe.Pointer(&b.nidx.Ptr), unsafe.Pointer(&b.nlist.Ptr), unsafe.Pointer(&b.nstat.Ptr)}
	flags := unsafe.Pointer(&b.flags.Ptr)
	steps := []kernelStep{
		{"eaf_reset", 1, threadsPerBlock, []unsafe.Pointer{graph[0], flags, unsafe.Pointer(&count)}},
		{"ecl_init", blocks, threadsPerBlock, graph},
	}
	passes := make([]int32, eclafMaxPasses)
	for p := range passes {
		passes[p] = int32(p)
	}
	got := make([]int32, eclafMaxPasses)
	for first := 0; ; first += eclafBatch {
		if first+eclafBatch > eclafMaxPasses {
			return fmt.Errorf("cuda: ECLaf did not converge in %d passes", eclafMaxPasses)
		}
		for p := first; p < first+eclafBatch; p++ {
			args := append(append([]unsafe.Pointer{}, graph...), unsafe.Pointer(&b.wl.Ptr), flags, unsafe.Pointer(&passes[p]))
			steps = append(steps,
				kernelStep{"eaf_compute1", blocks, threadsPerBlock, args},
				kernelStep{"eaf_compute2", blocks, threadsPerBlock, args},
				kernelStep{"eaf_compute3", blocks, threadsPerBlock, args})
		}
		steps = append(steps, kernelStep{"ecl_flatten", blocks, threadsPerBlock, []unsafe.Pointer{graph[0], graph[3]}})
		if err := c.runTimed(steps, t); err != nil {
			return err
		}
		// Only the last pass's flag decides; the download waits for
		// the kernels.
		if err := c.dc.Download(got, b.flags); err != nil {
			return err
		}
		if got[first+eclafBatch-1] == 0 {
			return nil
		}
		steps = steps[:0]
	}
}
