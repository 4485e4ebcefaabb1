package cclabel

import (
	"fmt"
	"time"

	"github.com/cclabel/cclabel/ecl"
)

// SpanningForest labels g as LabelGraph does and also returns a spanning
// forest of it (see ecl.SpanningForest), built by recording the edge of
// every successful hook. It runs on the CPU under every backend but
// BackendGPU, which fails: the GPU kernels do not record their hooks yet.
// ecl.ECLaf cannot record a forest and fails too.
func (l *Labeler) SpanningForest(g *ecl.Graph) (*GraphResult, *ecl.Forest, error) {
	if l.opts.Backend == BackendGPU {
		return nil, nil, fmt.Errorf("cclabel: spanning forests run on the CPU only (backend cpu, serial or auto)")
	}
	start := time.Now()
	res := &GraphResult{Backend: l.cpuBackend(), Algorithm: l.cpuAlgorithm(g)}
	opts := ecl.Options{Algorithm: res.Algorithm, Threads: l.threads, Serial: res.Backend == BackendSerial}
	r, f, err := ecl.SpanningForest(g, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("cclabel: %w", err)
	}
	res.Result = r
	res.Timing = Timing{Kernel: time.Since(start), Total: time.Since(start)}
	return res, f, nil
}

// cpuAlgorithm returns the algorithm the CPU runs on g: the options'
// algorithm, with ecl.Auto resolved.
func (l *Labeler) cpuAlgorithm(g *ecl.Graph) ecl.Algorithm {
	if l.opts.Algorithm == ecl.Auto {
		return ecl.ChooseAlgorithm(g)
	}
	return l.opts.Algorithm
}
