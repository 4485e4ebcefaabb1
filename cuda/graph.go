package cuda

import (
	"fmt"
	"math"
	"slices"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
)

// threadsPerBlock matches the kernels' ThreadsPerBlock.
const threadsPerBlock = 256

// Timing splits a GPU run into its stages.
type Timing struct {
	Upload, Kernel, Download time.Duration
	// Kernels holds each kernel's time, in launch order, when the
	// context's [Context].PerKernel is set.
	Kernels []KernelTime
}

// KernelTime is the time of one kernel launch.
type KernelTime struct {
	Name     string
	Duration time.Duration
}

// GraphComponents runs ECL-CC on the GPU and returns each vertex's
// representative.
//
// The representative is the smallest vertex ID of its component, as
// [ecl.ComponentsSerial] gives it; the [Timing] holds the time of each
// stage. The graph must be valid and symmetric, with sorted adjacency
// lists (as [ecl.FromEdges] and the readers of package formats build them;
// see [ecl.Graph.SortAdjacency]): the init kernel finds each vertex's
// closest smaller neighbour by binary search. An unsorted list is an
// error.
func (c *Context) GraphComponents(g *ecl.Graph) ([]int32, Timing, error) {
	run, err := c.LabelGraph(g, GraphOptions{Algorithm: ecl.ECL})
	if err != nil {
		return nil, Timing{}, err
	}
	return run.Parent, run.Timing, nil
}

// GraphOptions configures [Context.LabelGraph].
type GraphOptions struct {
	// Algorithm is [ecl.ECL] (the zero value), [ecl.ECLaf], [ecl.Afforest]
	// or [ecl.Auto] ([ChooseGraphAlgorithm]).
	Algorithm ecl.Algorithm
	// Forest records a spanning forest: the edge of every successful
	// hook. ECLaf cannot record one (its plain stores may overwrite a
	// hook) and fails.
	Forest bool
	// SampleRounds is Afforest's k, the neighbours of each vertex linked
	// before the giant component is looked for; 0 means adaptive, up to
	// [MaxSampleRounds] (a second round only when the first leaves the
	// giant under a quarter of the samples).
	SampleRounds int
	// round0 overrides Afforest's round 0 (tests and benchmarks): 0
	// lets afforestRound0 pick, else round0Init or round0Link.
	round0 int
	// wide runs the 64-bit-offset kernels whatever the graph's size
	// (tests).
	wide bool
	// compress0 overrides whether ECL-CC's init trees are compressed
	// before compute1 (tests and benchmarks): 0 when the graph has no
	// hubs (degreeShape), 1 always, -1 never.
	compress0 int
	// rootLinks, when -1, leaves out Afforest's links of the init's
	// roots (aff_compress_links; tests and benchmarks).
	rootLinks int
	// prio overrides whether ECL-CC hooks by priority (tests and
	// benchmarks): 0 lets hookByPriority decide, 1 always, -1 never.
	prio int
}

// compressRound0 resolves o.compress0, def when o leaves it open.
func (o GraphOptions) compressRound0(def bool) bool {
	switch o.compress0 {
	case 1:
		return true
	case -1:
		return false
	}
	return def
}

// GraphRun is the outcome of [Context.LabelGraph].
type GraphRun struct {
	// Parent holds each vertex's representative, the smallest vertex ID
	// of its component.
	Parent []int32
	// Forest is the spanning forest when [GraphOptions].Forest asked for
	// one, its edges listed by the vertex they hooked (see [ecl.Forest]).
	Forest *ecl.Forest
	// Algorithm is the algorithm that ran ([ecl.Auto] resolved).
	Algorithm ecl.Algorithm
	// Timing is the time of each stage.
	Timing Timing
}

// graphBuffers are a graph's device buffers: CSR offsets and neighbours,
// the parent array (nstat), the worklist, the forest's edges (only with
// a forest) and ECLaf's pass flags.
type graphBuffers struct {
	nidx, nlist, nstat, wl, fe, flags driver.Buffer
}

// LabelGraph labels the components of g on the GPU with the algorithm of
// opts.
//
// It returns each vertex's representative (the smallest vertex ID of its
// component, as [ecl.ComponentsSerial] gives it), and a spanning forest
// when opts ask for one. The graph must be valid and symmetric, with
// sorted adjacency lists (as [ecl.FromEdges] and the readers of package
// formats build them; see [ecl.Graph.SortAdjacency]): the init kernel
// finds each vertex's closest smaller neighbour by binary search. An
// unsorted list is an error.
func (c *Context) LabelGraph(g *ecl.Graph, opts GraphOptions) (*GraphRun, error) {
	n := g.NumVertices()
	alg := opts.Algorithm
	if alg == ecl.Auto {
		alg = ChooseGraphAlgorithm(g)
	}
	// A graph of 2^31 arcs or more (64-bit offsets on the device) runs
	// ECL-CC, the one algorithm with wide kernels.
	wide := opts.wide || g.NumEdges() > math.MaxInt32
	if wide && alg.Valid() {
		alg = ecl.ECL
	}
	switch {
	case !alg.Valid():
		return nil, fmt.Errorf("cuda: unknown graph algorithm %v", alg)
	case alg == ecl.ECLaf && opts.Forest:
		return nil, fmt.Errorf("cuda: ECLaf cannot record a spanning forest (its plain stores may overwrite a hook): use ecl or afforest")
	case opts.SampleRounds < 0:
		return nil, fmt.Errorf("cuda: %d Afforest sample rounds", opts.SampleRounds)
	}
	run := &GraphRun{Parent: make([]int32, n), Algorithm: alg}
	if opts.Forest {
		run.Forest = &ecl.Forest{U: []int32{}, V: []int32{}}
	}
	if n == 0 {
		return run, nil
	}
	if n > imagegraph.MaxKernelVoxels {
		return nil, fmt.Errorf("cuda: %d vertices: the graph kernels take at most %d (32-bit grid-stride indices)", n, imagegraph.MaxKernelVoxels)
	}
	if v := driver.FirstUnsortedList(g); v >= 0 {
		return nil, fmt.Errorf("cuda: the adjacency list of vertex %d is not sorted (ecl.Graph.SortAdjacency sorts them)", v)
	}
	shape := shapeOf(g)
	round0 := opts.round0
	if alg == ecl.Afforest && round0 == 0 {
		round0 = afforestRound0(shape)
	}
	prio := alg == ecl.ECL && opts.hookByPriority(shape, opts.Forest, wide)
	var edges []uint64
	err := c.dc.Do(func() error {
		var b graphBuffers
		defer func() { c.dc.Free(b.nidx, b.nlist, b.nstat, b.wl, b.fe, b.flags) }()
		if err := c.allocGraph(g, opts.Forest, wide, &b); err != nil {
			return err
		}
		start := time.Now()
		var err error
		// The copies go through the context's pinned staging buffers.
		if wide {
			err = driver.UploadSlice(c.dc, b.nidx.Ptr, g.Offsets)
		} else {
			err = driver.UploadSlice(c.dc, b.nidx.Ptr, driver.Int32s(g.Offsets))
		}
		if err != nil {
			return err
		}
		if err := driver.UploadSlice(c.dc, b.nlist.Ptr, g.Neighbors); err != nil {
			return err
		}
		if err := c.dc.Sync(); err != nil {
			return err
		}
		run.Timing.Upload = time.Since(start)

		labels := b.nstat
		switch {
		case prio:
			err = c.runTimed(eclPrioritySteps(c.blocks, int32(n), &b), &run.Timing)
			labels = b.wl
		case alg == ecl.ECL:
			err = c.runTimed(eclSteps(c.blocks, int32(n), &b, opts.Forest, wide, opts.compressRound0(!shape.hubs), shape.listed), &run.Timing)
		case alg == ecl.Afforest:
			err = c.runTimed(afforestSteps(c.blocks, int32(n), &b, opts, round0, shape.listed), &run.Timing)
		case alg == ecl.ECLaf:
			err = c.runECLaf(int32(n), &b, &run.Timing)
		}
		if err != nil {
			return err
		}

		start = time.Now()
		if err := driver.DownloadSlice(c.dc, run.Parent, labels.Ptr); err != nil {
			return err
		}
		if opts.Forest {
			edges = make([]uint64, n)
			if err := driver.DownloadSlice(c.dc, edges, b.fe.Ptr); err != nil {
				return err
			}
		}
		run.Timing.Download = time.Since(start)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if opts.Forest {
		run.Forest = driver.Forest(run.Parent, edges)
	}
	return run, nil
}

// allocGraph checks that g fits in the device's free memory and allocates
// its buffers (call inside do); wide offsets take 8 bytes, else 4.
func (c *Context) allocGraph(g *ecl.Graph, forest, wide bool, b *graphBuffers) error {
	n := g.NumVertices()
	offsetBytes := uint64(4)
	if wide {
		offsetBytes = 8
	}
	sizes := []uint64{offsetBytes * uint64(len(g.Offsets)), uint64(4 * len(g.Neighbors)), uint64(4 * n), uint64(4 * n), 4 * eclafMaxPasses}
	if forest {
		sizes = append(sizes, uint64(8*n))
	}
	bufs, err := c.dc.AllocAll("the graph", sizes...)
	if err != nil {
		return err
	}
	b.nidx, b.nlist, b.nstat, b.wl, b.flags = bufs[0], bufs[1], bufs[2], bufs[3], bufs[4]
	if forest {
		b.fe = bufs[5]
	}
	return nil
}

// eclSteps are ECL-CC's kernels: init (which empties the worklist), with
// compress the init's trees compressed (aff_compress), compute by degree
// (thread; warp and block when listed, see degreeShape), flatten; the _f
// kernels with a forest, the _w kernels for 64-bit offsets (_fw both).
func eclSteps(blocks uint32, nodes int32, b *graphBuffers, forest, wide, compress, listed bool) []kernelStep {
	suffix := ""
	args := []unsafe.Pointer{unsafe.Pointer(&nodes), unsafe.Pointer(&b.nidx.Ptr), unsafe.Pointer(&b.nlist.Ptr), unsafe.Pointer(&b.nstat.Ptr), unsafe.Pointer(&b.wl.Ptr)}
	initArgs := args[:4]
	if forest {
		suffix = "_f"
		fe := unsafe.Pointer(&b.fe.Ptr)
		initArgs = append(slices.Clip(args[:4]), fe)
		args = append(args, fe)
	}
	if wide {
		suffix += "w"
		if !forest {
			suffix = "_w"
		}
	}
	steps := []kernelStep{{"ecl_init" + suffix, blocks, threadsPerBlock, initArgs}}
	if compress {
		always := int32(0) // aff_compress's adaptive: compress whatever the samples say
		steps = append(steps, kernelStep{"aff_compress", blocks, threadsPerBlock, []unsafe.Pointer{args[0], args[3], unsafe.Pointer(&always)}})
	}
	steps = append(steps, kernelStep{"ecl_compute1" + suffix, blocks, threadsPerBlock, args})
	if listed {
		steps = append(steps, kernelStep{"ecl_compute23" + suffix, blocks, threadsPerBlock, args})
	}
	return append(steps, kernelStep{"ecl_flatten", blocks, threadsPerBlock, []unsafe.Pointer{args[0], args[3]}})
}
