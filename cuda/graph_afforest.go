package cuda

import "unsafe"

// DefaultSampleRounds is the k of Afforest on the GPU when
// GraphOptions.SampleRounds is 0 (see cuda/PERF.md for the measurements).
const DefaultSampleRounds = 2

// affSamples is the number of vertices aff_sample draws (one block).
const affSamples = 1024

// afforestSteps are Afforest's kernels (kernels/ecl_graph_afforest.cu):
// reset the worklist; round 0 (ECL-CC's init, or with linkFirst the
// identity and a link to the first neighbour); rounds 1..k-1 linking the
// neighbour at position r; compress; sample the giant; finish by degree
// (thread, warp, block), skipping the vertices in the giant and the
// positions the rounds linked; flatten.
func afforestSteps(blocks uint32, nodes int32, b *graphBuffers, opts GraphOptions) []kernelStep {
	k := int32(opts.SampleRounds)
	if k == 0 {
		k = DefaultSampleRounds
	}
	from0 := int32(1) // ECL-CC's init linked the closest smaller neighbour, not position 0
	if opts.linkFirst {
		from0 = 0
	}
	suffix := ""
	var fe []unsafe.Pointer
	if opts.Forest {
		suffix = "_f"
		fe = []unsafe.Pointer{unsafe.Pointer(&b.fe.ptr)}
	}
	p := func(x *int32) unsafe.Pointer { return unsafe.Pointer(x) }
	graph := []unsafe.Pointer{p(&nodes), unsafe.Pointer(&b.nidx.ptr), unsafe.Pointer(&b.nlist.ptr), unsafe.Pointer(&b.nstat.ptr)}
	with := func(base []unsafe.Pointer, more ...unsafe.Pointer) []unsafe.Pointer {
		return append(append(append([]unsafe.Pointer{}, base...), more...), fe...)
	}
	steps := []kernelStep{{"ecl_reset", 1, threadsPerBlock, graph[:1]}}
	if opts.linkFirst {
		zero := int32(0)
		steps = append(steps,
			kernelStep{"aff_identity", blocks, threadsPerBlock, []unsafe.Pointer{graph[0], graph[3]}},
			kernelStep{"aff_round" + suffix, blocks, threadsPerBlock, with(graph, p(&zero))})
	} else {
		steps = append(steps, kernelStep{"ecl_init" + suffix, blocks, threadsPerBlock, with(graph)})
	}
	for r := int32(1); r < k; r++ {
		steps = append(steps, kernelStep{"aff_round" + suffix, blocks, threadsPerBlock, with(graph, p(&r))})
	}
	wl := unsafe.Pointer(&b.wl.ptr)
	finish := with(graph, wl, p(&k), p(&from0))
	return append(steps,
		kernelStep{"aff_compress", blocks, threadsPerBlock, []unsafe.Pointer{graph[0], graph[3]}},
		kernelStep{"aff_sample", 1, affSamples, []unsafe.Pointer{graph[0], graph[3]}},
		kernelStep{"aff_finish1" + suffix, blocks, threadsPerBlock, finish},
		kernelStep{"aff_finish2" + suffix, blocks, threadsPerBlock, finish},
		kernelStep{"aff_finish3" + suffix, blocks, threadsPerBlock, finish},
		kernelStep{"ecl_flatten", blocks, threadsPerBlock, []unsafe.Pointer{graph[0], graph[3]}},
	)
}
