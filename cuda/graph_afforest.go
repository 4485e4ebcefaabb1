package cuda

import "unsafe"

// MaxSampleRounds is Afforest's k on the GPU when its rounds are adaptive.
//
// They are adaptive when [GraphOptions].SampleRounds is 0: the second
// round runs only when the first leaves the giant under a quarter of the
// samples (grids and R-MAT graphs stop after one, uniform random graphs
// take two; see docs/gpu.md).
const MaxSampleRounds = 2

// Afforest's round 0: ECL-CC's init (each vertex at its closest smaller
// neighbour, plain stores) or, as the paper does, the identity and a link
// of each vertex to its first neighbour with compare-and-swap;
// afforestRound0 picks one by the graph's shape.
const (
	round0Init = 1
	round0Link = 2
)

// affSamples is the number of vertices aff_sample draws (its block size,
// AffSamples in the kernels).
const affSamples = 256

// afforestSteps are Afforest's kernels (kernels/ecl_graph_afforest.cu):
// round 0 (with round0Link the identity and a link to the first
// neighbour, else ECL-CC's init and aff_compress_links, which links the
// init's roots to their two largest neighbours; either round 0 empties
// the worklist); compress and sample the giant; each further round r < k
// links the neighbour at position r, then compresses and samples again
// (skipped, when adaptive, once the giant holds a quarter of the
// samples); finish by degree (thread; warp and block when listed, see
// degreeShape), skipping the vertices in the giant and the positions the
// rounds linked; flatten.
func afforestSteps(blocks uint32, nodes int32, b *graphBuffers, opts GraphOptions, round0 int, listed bool) []kernelStep {
	k := int32(opts.SampleRounds)
	adaptive := int32(0)
	if k == 0 {
		k, adaptive = MaxSampleRounds, 1
	}
	link := round0 == round0Link
	from0 := int32(1) // ECL-CC's init linked the closest smaller neighbour, not position 0
	if link {
		from0 = 0
	}
	suffix := ""
	var fe []unsafe.Pointer
	if opts.Forest {
		suffix = "_f"
		fe = []unsafe.Pointer{unsafe.Pointer(&b.fe.Ptr)}
	}
	p := func(x *int32) unsafe.Pointer { return unsafe.Pointer(x) }
	graph := []unsafe.Pointer{p(&nodes), unsafe.Pointer(&b.nidx.Ptr), unsafe.Pointer(&b.nlist.Ptr), unsafe.Pointer(&b.nstat.Ptr)}
	with := func(base []unsafe.Pointer, more ...unsafe.Pointer) []unsafe.Pointer {
		return append(append(append([]unsafe.Pointer{}, base...), more...), fe...)
	}
	zero := int32(0)
	var steps []kernelStep
	if link {
		steps = append(steps,
			kernelStep{"aff_identity", blocks, threadsPerBlock, []unsafe.Pointer{graph[0], graph[3]}},
			kernelStep{"aff_round" + suffix, blocks, threadsPerBlock, with(graph, p(&zero), p(&zero))})
	} else {
		steps = append(steps, kernelStep{"ecl_init" + suffix, blocks, threadsPerBlock, with(graph)})
	}
	afterRound0 := int32(-1)
	tree := []unsafe.Pointer{graph[0], graph[3], p(&afterRound0)}
	if !link && opts.rootLinks >= 0 {
		steps = append(steps, kernelStep{"aff_compress_links" + suffix, blocks, threadsPerBlock, with(graph)})
	}
	steps = append(steps,
		kernelStep{"aff_compress", blocks, threadsPerBlock, tree},
		kernelStep{"aff_sample", 1, affSamples, tree})
	skip := []unsafe.Pointer{graph[0], graph[3], p(&adaptive)}
	for r := int32(1); r < k; r++ {
		steps = append(steps,
			kernelStep{"aff_round" + suffix, blocks, threadsPerBlock, with(graph, p(&r), p(&adaptive))},
			kernelStep{"aff_compress", blocks, threadsPerBlock, skip},
			kernelStep{"aff_sample", 1, affSamples, skip})
	}
	wl := unsafe.Pointer(&b.wl.Ptr)
	finish := with(graph, wl, p(&k), p(&from0))
	steps = append(steps, kernelStep{"aff_finish1" + suffix, blocks, threadsPerBlock, finish})
	if listed {
		steps = append(steps, kernelStep{"aff_finish23" + suffix, blocks, threadsPerBlock, finish})
	}
	return append(steps, kernelStep{"ecl_flatten", blocks, threadsPerBlock, []unsafe.Pointer{graph[0], graph[3]}})
}
