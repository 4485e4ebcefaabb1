package cclabel

import (
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl"
)

// GraphResult is the outcome of labeling a graph.
type GraphResult struct {
	// Result holds each vertex's representative (the smallest vertex ID
	// of its component) and the component count.
	Result *ecl.Result
	// Backend is the backend that labeled: BackendGPU, BackendCPU or
	// BackendSerial.
	Backend Backend
	// Algorithm is the algorithm that ran (ecl.Auto resolved): ecl.ECL
	// on the GPU.
	Algorithm ecl.Algorithm
	// Timing is where the call spent its time.
	Timing Timing
}

// LabelGraph finds the connected components of g, a valid symmetric graph
// with sorted adjacency lists (as ecl.FromEdges and the graph readers
// build them). Under BackendAuto a graph goes to the GPU when it has at
// least GPUMinArcsPerCore stored arcs per CPU thread and a GPU is usable.
func (l *Labeler) LabelGraph(g *ecl.Graph) (*GraphResult, error) {
	start := time.Now()
	res := &GraphResult{Backend: BackendGPU, Algorithm: ecl.ECL}
	ran, err := l.runGPU(g.NumEdges() >= GPUMinArcsPerCore*l.threads, func(c *cuda.Context, setup time.Duration) error {
		parent, t, err := c.GraphComponents(g)
		if err != nil {
			return err
		}
		res.Result = ecl.NewResult(parent, l.threads)
		res.Timing = Timing{Setup: setup, Upload: t.Upload, Kernel: t.Kernel, Download: t.Download}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !ran {
		res.Backend = l.cpuBackend()
		res.Algorithm = l.cpuAlgorithm(g)
		opts := ecl.Options{Algorithm: res.Algorithm, Threads: l.threads, Serial: res.Backend == BackendSerial}
		if res.Result, err = ecl.Components(g, opts); err != nil {
			return nil, err
		}
		res.Timing = Timing{Kernel: time.Since(start)}
	}
	res.Timing.Total = time.Since(start)
	return res, nil
}
