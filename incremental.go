package cclabel

import (
	"errors"
	"fmt"
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl/incremental"
)

// GPUMinUpdatesPerCore is the batch size, in edge insertions per CPU
// thread, from which a Connectivity under BackendAuto moves to the GPU,
// when the labeler's GPU context is already open (the graph was labeled
// there, or Prepare ran). Measured on an H100 host with 16 cores
// (issue 14): from about 2^20 edges a batch's upload and kernels beat
// the CPU union-find on 16 threads by more than moving the components
// over costs. Without an open context a Connectivity stays on the CPU:
// the driver's start-up (about 0.17 s) is worth tens of millions of CPU
// insertions, more than a replay's batch, and parsing the update lines
// takes longer than inserting them on the CPU.
const GPUMinUpdatesPerCore = 1 << 16

// errConnectivityClosed is returned by a GPU Connectivity used after its
// Close or its labeler's Close.
var errConnectivityClosed = errors.New("cclabel: connectivity: closed (or its labeler was)")

// Connectivity is incremental connectivity (package ecl/incremental) on a
// labeler's backend: the CPU union-find (incremental.UnionFind), or the
// GPU's (cuda.Incremental) under BackendGPU, and under BackendAuto the
// CPU until a batch of at least GPUMinUpdatesPerCore edges per thread
// arrives while the labeler's GPU context is open. Answers are the same
// on every backend: a component's representative is its smallest vertex.
//
// A Connectivity is not safe for concurrent use. Close it before its
// labeler.
type Connectivity struct {
	l   *Labeler
	cpu *incremental.UnionFind
	gpu *cuda.Incremental
	ctx *cuda.Context // the context gpu lives in
	// auto lets the CPU structure move to the GPU on a large batch.
	auto bool
}

var _ incremental.Connectivity = (*Connectivity)(nil)

// NewConnectivity returns incremental connectivity over n isolated
// vertices on the labeler's backend. Under BackendGPU it fails when no
// GPU is usable.
func (l *Labeler) NewConnectivity(n int) (*Connectivity, error) {
	return l.connectivity(n, nil)
}

// ConnectivityFrom returns incremental connectivity whose components are
// those of parent: the representatives of a static labeling
// (ecl.Result.Parent, as LabelGraph returns it), or any forest in which
// every vertex points at itself or at a smaller vertex. It takes parent
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
				c.gpu, err = ctx.NewIncremental(n)
			} else {
				c.gpu, err = ctx.IncrementalFrom(parent)
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

// Backend returns where the structure lives now: BackendGPU, BackendCPU
// or BackendSerial.
func (c *Connectivity) Backend() Backend {
	if c.gpu != nil {
		return BackendGPU
	}
	return c.l.cpuBackend()
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

// Insert adds the undirected edges (us[i], vs[i]); self-loops and
// repeated edges change nothing. A failed Insert changes nothing. Under
// BackendAuto a large batch first moves the structure to the GPU (see
// Connectivity).
func (c *Connectivity) Insert(us, vs []int32) error {
	if c.auto && c.gpu == nil && len(us) >= GPUMinUpdatesPerCore*c.l.threads && c.l.gpuOpen() {
		c.moveToGPU()
	}
	if c.gpu != nil {
		return c.onGPU(func() error { return c.gpu.Insert(us, vs) })
	}
	return c.cpu.Insert(us, vs)
}

// moveToGPU copies the CPU structure's components to the GPU; on failure
// (a warning, as in labeling) it stays on the CPU.
func (c *Connectivity) moveToGPU() {
	reps := c.cpu.Result().Parent
	ran, _ := c.l.runGPU(true, func(ctx *cuda.Context, _ time.Duration) error {
		gpu, err := ctx.IncrementalFrom(reps)
		if err != nil {
			return err
		}
		c.gpu, c.ctx = gpu, ctx
		return nil
	})
	c.auto = false
	if ran {
		c.cpu = nil
	}
}

// ConnectedBatch sets dst[i] to whether us[i] and vs[i] are in the same
// component.
func (c *Connectivity) ConnectedBatch(us, vs []int32, dst []bool) error {
	if c.gpu != nil {
		return c.onGPU(func() error { return c.gpu.ConnectedBatch(us, vs, dst) })
	}
	return c.cpu.ConnectedBatch(us, vs, dst)
}

// RepresentativesBatch sets dst[i] to the representative of vs[i]: the
// smallest vertex of its component.
func (c *Connectivity) RepresentativesBatch(vs, dst []int32) error {
	if c.gpu != nil {
		return c.onGPU(func() error { return c.gpu.RepresentativesBatch(vs, dst) })
	}
	return c.cpu.RepresentativesBatch(vs, dst)
}

// Representatives returns every vertex's representative (as
// ecl.Result.Parent holds them).
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

// Close frees the GPU memory of a Connectivity on the GPU (later calls
// other than NumVertices and Components fail); it does nothing on the
// CPU.
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
