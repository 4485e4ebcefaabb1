package cclabel

import (
	"errors"
	"fmt"
	"time"

	"github.com/cclabel/cclabel/cuda"
	gpuinc "github.com/cclabel/cclabel/cuda/incremental"
	"github.com/cclabel/cclabel/ecl/incremental"
)

// Costs that decide when a [Connectivity] under [BackendAuto] moves from the
// CPU to the GPU. The GPU inserts a batch, upload included, faster than the
// CPU union-find, but moving costs the CPU's representatives and their
// upload, plus the driver's start-up when the labeler's context is not open
// yet. Future batches are unknown, so the move follows the ski-rental rule:
// once the CPU has spent on insertions as long as the move costs, the
// structure moves, which never takes more than twice the better of the two
// choices (and a replay parses its lines for longer than it inserts them, in
// any case).
const (
	// gpuMoveSecondsPerVertex is the cost of moving, per vertex.
	gpuMoveSecondsPerVertex = 5e-9
	// gpuOpenSeconds is the cost of loading the driver and creating the
	// context, an upper estimate of it.
	gpuOpenSeconds = 0.2
)

// errConnectivityClosed is returned by a GPU Connectivity used after its
// Close or its labeler's Close.
var errConnectivityClosed = errors.New("cclabel: connectivity: closed (or its labeler was)")

// Connectivity is incremental connectivity on a labeler's backend. It
// implements package [incremental] (ecl/incremental) with the CPU union-find
// ([incremental.UnionFind]), or with the GPU's (cuda/incremental) under
// [BackendGPU]. Under [BackendAuto] it starts on the CPU and moves to the
// GPU, when one is usable, once the CPU has spent as long inserting edges as
// moving would cost (about 5 ns a vertex, plus 0.2 s when the labeler's GPU
// context is not open yet). Answers are the same on every backend: a
// component's representative is its smallest vertex. Once on the GPU it stays
// there: a GPU error after the move is returned, not hidden by a fallback.
//
// A Connectivity is not safe for concurrent use. Close it before its
// labeler.
type Connectivity struct {
	l   *Labeler
	cpu *incremental.UnionFind
	gpu *gpuinc.Incremental
	ctx *cuda.Context // the context gpu lives in
	// auto lets the CPU structure move to the GPU; cpuSeconds is the
	// time its insertions took so far.
	auto       bool
	cpuSeconds float64
}

var _ incremental.Connectivity = (*Connectivity)(nil)

// NewConnectivity returns incremental connectivity over n isolated vertices
// on the labeler's backend. Under [BackendGPU] it fails when no GPU is
// usable.
func (l *Labeler) NewConnectivity(n int) (*Connectivity, error) {
	return l.connectivity(n, nil)
}

// ConnectivityFrom returns incremental connectivity whose components are
// those of parent. parent holds the representatives of a static labeling
// ([ecl.Result.Parent], as [Labeler.LabelGraph] returns it), or any forest in
// which every vertex points at itself or at a smaller vertex. It takes parent
// over: the caller must not use it afterwards.
func (l *Labeler) ConnectivityFrom(parent []int32) (*Connectivity, error) {
	if parent == nil {
		parent = []int32{}
	}
	return l.connectivity(len(parent), parent)
}

// connectivity builds a Connectivity of n isolated vertices (parent nil)
// or from parent.
func (l *Labeler) connectivity(n int, parent []int32) (*Connectivity, error) {
	c := &Connectivity{l: l, auto: l.opts.Backend == BackendAuto}
	if l.opts.Backend == BackendGPU {
		_, err := l.runGPU(true, func(ctx *cuda.Context, _ time.Duration) error {
			var err error
			if parent == nil {
				c.gpu, err = gpuinc.New(ctx, n)
			} else {
				c.gpu, err = gpuinc.From(ctx, parent)
			}
			c.ctx = ctx
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("cclabel: connectivity: %w", err)
		}
		return c, nil
	}
	threads := l.threads
	if l.opts.Backend == BackendSerial {
		threads = 1
	}
	var err error
	if parent == nil {
		c.cpu, err = incremental.New(n, threads)
	} else {
		c.cpu, err = incremental.FromRepresentatives(parent, threads)
	}
	if err != nil {
		return nil, fmt.Errorf("cclabel: connectivity: %w", err)
	}
	return c, nil
}

// Backend returns where the structure lives now: [BackendGPU], [BackendCPU]
// or [BackendSerial].
func (c *Connectivity) Backend() Backend {
	if c.gpu != nil {
		return BackendGPU
	}
	return c.l.CPUBackend()
}

// NumVertices returns the number of vertices.
func (c *Connectivity) NumVertices() int {
	if c.gpu != nil {
		return c.gpu.NumVertices()
	}
	return c.cpu.NumVertices()
}

// Components returns the number of components.
func (c *Connectivity) Components() int {
	if c.gpu != nil {
		return c.gpu.Components()
	}
	return c.cpu.Components()
}

// Insert adds the undirected edges (us[i], vs[i]). Self-loops and repeated
// edges change nothing. A failed Insert changes nothing. Under [BackendAuto]
// it may first move the structure to the GPU (see [Connectivity]).
func (c *Connectivity) Insert(us, vs []int32) error {
	if c.auto && c.gpu == nil && len(us) > 0 && c.cpuSeconds >= c.moveSeconds() {
		c.moveToGPU()
	}
	if c.gpu != nil {
		return c.onGPU(func() error { return c.gpu.Insert(us, vs) })
	}
	start := time.Now()
	err := c.cpu.Insert(us, vs)
	c.cpuSeconds += time.Since(start).Seconds()
	return err
}

// moveSeconds estimates the cost of moving to the GPU.
func (c *Connectivity) moveSeconds() float64 {
	s := gpuMoveSecondsPerVertex * float64(c.cpu.NumVertices())
	if !c.l.gpuOpen() {
		s += gpuOpenSeconds
	}
	return s
}

// moveToGPU copies the CPU structure's components to the GPU; when no
// GPU is usable, or on failure (a warning, as in labeling), it stays on
// the CPU for good.
func (c *Connectivity) moveToGPU() {
	c.auto = false
	if c.l.gpuUsable() != nil {
		return
	}
	reps := c.cpu.Result().Parent
	ran, _ := c.l.runGPU(true, func(ctx *cuda.Context, _ time.Duration) error {
		gpu, err := gpuinc.From(ctx, reps)
		if err != nil {
			return err
		}
		c.gpu, c.ctx = gpu, ctx
		return nil
	})
	if ran {
		c.cpu = nil
	}
}

// ConnectedBatch sets dst[i] to whether us[i] and vs[i] are connected. That
// is, whether they lie in the same component.
func (c *Connectivity) ConnectedBatch(us, vs []int32, dst []bool) error {
	if c.gpu != nil {
		return c.onGPU(func() error { return c.gpu.ConnectedBatch(us, vs, dst) })
	}
	return c.cpu.ConnectedBatch(us, vs, dst)
}

// RepresentativesBatch sets dst[i] to the representative of vs[i]. The
// representative is the smallest vertex of its component.
func (c *Connectivity) RepresentativesBatch(vs, dst []int32) error {
	if c.gpu != nil {
		return c.onGPU(func() error { return c.gpu.RepresentativesBatch(vs, dst) })
	}
	return c.cpu.RepresentativesBatch(vs, dst)
}

// Representatives returns every vertex's representative (as
// [ecl.Result.Parent] holds them).
func (c *Connectivity) Representatives() ([]int32, error) {
	if c.gpu != nil {
		var reps []int32
		err := c.onGPU(func() error {
			var err error
			reps, err = c.gpu.Representatives()
			return err
		})
		return reps, err
	}
	return c.cpu.Result().Parent, nil
}

// Close frees the GPU memory of a [Connectivity] on the GPU. Later calls
// other than [Connectivity.NumVertices] and [Connectivity.Components] fail.
// On the CPU it does nothing.
func (c *Connectivity) Close() error {
	if c.gpu == nil {
		return nil
	}
	if err := c.onGPU(c.gpu.Close); err != nil && !errors.Is(err, errConnectivityClosed) {
		return err
	}
	return nil
}

// onGPU runs f with the labeler's GPU lock held, after checking that the
// labeler's context is still the one the structure lives in.
func (c *Connectivity) onGPU(f func() error) error {
	c.l.gpuMu.Lock()
	defer c.l.gpuMu.Unlock()
	if c.l.ctx == nil || c.l.ctx != c.ctx {
		return errConnectivityClosed
	}
	return f()
}
