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
// Measured on an H100 (cuda/PERF.md): the NY road network 0.038 ms
// against ECL-CC's 0.058; a 1024² grid 0.085 against 0.042 (its edges
// within blocks chain along the rows), so denser graphs keep ECL-CC's
// hooks.
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
	nidx, nlist, nstat, least := unsafe.Pointer(&b.nidx.ptr), unsafe.Pointer(&b.nlist.ptr), unsafe.Pointer(&b.nstat.ptr), unsafe.Pointer(&b.wl.ptr)
	return []kernelStep{
		{"prio_block_init", blocks, threadsPerBlock, []unsafe.Pointer{n, nidx, nlist, nstat, least}},
		{"prio_compute1", blocks, threadsPerBlock, []unsafe.Pointer{n, nidx, nlist, nstat}},
		{"prio_least", blocks, threadsPerBlock, []unsafe.Pointer{n, nidx, nlist, nstat, least}},
		{"prio_flatten", blocks, threadsPerBlock, []unsafe.Pointer{n, nstat, least}},
	}
}
