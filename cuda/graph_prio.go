package cuda

import "unsafe"

// hookByPriority says whether ECL-CC hooks by priority
// (kernels/ecl_graph_prio.cu: the edges within blocks of consecutive IDs
// joined in shared memory, the others hooked root of lower hashed
// priority under the other, the components' smallest vertices found
// afterwards) on a graph of shape d: without a forest (the priority
// kernels record no hooks) or 64-bit offsets, on sparse graphs (road
// networks, below AutoMinDegree) without hubs or vertices above
// threadDegree, unless o.prio forces the choice (tests and benchmarks).
// Denser graphs keep ECL-CC's hooks: on a grid, say, the edges within a
// block chain along the rows, and the block-local joins cost more than
// the priorities save (docs/gpu.md).
func (o GraphOptions) hookByPriority(d degreeShape, forest, wide bool) bool {
	if forest || wide {
		return false
	}
	switch o.prio {
	case 1:
		return true
	case -1:
		return false
	}
	return d.sparse && !d.hubs && !d.listed
}

// eclPrioritySteps are ECL-CC's kernels hooking by priority:
// prio_block_init (least entries to none in b.wl), prio_compute1,
// prio_least, prio_flatten; the representatives end in b.wl.
func eclPrioritySteps(blocks uint32, nodes int32, b *graphBuffers) []kernelStep {
	n := unsafe.Pointer(&nodes)
	nidx, nlist, nstat, least := unsafe.Pointer(&b.nidx.Ptr), unsafe.Pointer(&b.nlist.Ptr), unsafe.Pointer(&b.nstat.Ptr), unsafe.Pointer(&b.wl.Ptr)
	return []kernelStep{
		{"prio_block_init", blocks, threadsPerBlock, []unsafe.Pointer{n, nidx, nlist, nstat, least}},
		{"prio_compute1", blocks, threadsPerBlock, []unsafe.Pointer{n, nidx, nlist, nstat}},
		{"prio_least", blocks, threadsPerBlock, []unsafe.Pointer{n, nidx, nlist, nstat, least}},
		{"prio_flatten", blocks, threadsPerBlock, []unsafe.Pointer{n, nstat, least}},
	}
}
