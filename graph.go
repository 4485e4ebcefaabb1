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
	// Backend is the backend that labeled: [BackendGPU], [BackendCPU] or
	// [BackendSerial].
	Backend Backend
	// Algorithm is the algorithm that ran ([ecl.Auto] resolved: on the GPU by
	// [cuda.ChooseGraphAlgorithm], on the CPU by [ecl.ChooseAlgorithm]).
	Algorithm ecl.Algorithm
	// Timing is where the call spent its time.
	Timing Timing
}

// LabelGraph finds the connected components of the graph g. g must be a valid
// symmetric graph with sorted adjacency lists (as [ecl.FromEdges] and the
// graph readers build them). Under [BackendAuto] a graph goes to the GPU when
// a GPU is usable and the cost model of [BackendAuto] expects it to be
// faster.
func (l *Labeler) LabelGraph(g *ecl.Graph) (*GraphResult, error) {
	res, _, err := l.labelGraph(g, false)
	return res, err
}

// labelGraph is LabelGraph, recording a spanning forest when forest is
// set.
func (l *Labeler) labelGraph(g *ecl.Graph, forest bool) (*GraphResult, *ecl.Forest, error) {
	start := time.Now()
	res := &GraphResult{Backend: BackendGPU}
	var f *ecl.Forest
	ran, err := l.runGPU(l.gpuPays(graphWork(g)), func(c *cuda.Context, setup time.Duration) error {
		run, err := c.LabelGraph(g, cuda.GraphOptions{Algorithm: l.opts.Algorithm, Forest: forest})
		if err != nil {
			return err
		}
		res.Algorithm, f = run.Algorithm, run.Forest
		res.Result = ecl.NewResult(run.Parent, l.threads)
		t := run.Timing
		res.Timing = Timing{Setup: setup, Upload: t.Upload, Kernel: t.Kernel, Download: t.Download}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if !ran {
		res.Backend = l.CPUBackend()
		res.Algorithm = l.cpuAlgorithm(g)
		opts := ecl.Options{Algorithm: res.Algorithm, Threads: l.threads, Serial: res.Backend == BackendSerial}
		if forest {
			res.Result, f, err = ecl.SpanningForest(g, opts)
		} else {
			res.Result, err = ecl.Components(g, opts)
		}
		if err != nil {
			return nil, nil, err
		}
		res.Timing = Timing{Kernel: time.Since(start)}
	}
	res.Timing.Total = time.Since(start)
	return res, f, nil
}
