package main

import (
	"fmt"
	"io"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl"
)

// gpuMinArcsPerCore sets the graph size (stored arcs) from which --backend
// auto labels on the GPU: that many arcs per CPU core. Measured on an H200
// host with 16 cores: opening the driver and context costs about 0.2 s per
// run, uploads run at about 1.4 GB/s, while the CPU labels about 32M arcs
// per second per core (67M arcs in 0.13 s), so the GPU pays off from about
// 8M arcs per core (134M arcs there, 17M on 2 cores).
const gpuMinArcsPerCore = 1 << 23

// gpuTimes are the GPU stages in the JSON summary.
type gpuTimes struct {
	Upload   float64 `json:"upload"`
	Kernel   float64 `json:"kernel"`
	Download float64 `json:"download"`
}

// graphComponents labels g on the backend the engine chose. Under
// --backend auto a large graph is tried on the GPU when one is usable; any
// GPU failure then gives a warning and the CPU result. It sets
// e.backend to the backend that produced the result.
func graphComponents(g *ecl.Graph, e *engine, stderr io.Writer) (*ecl.Result, *gpuTimes, error) {
	useGPU := e.backend == "gpu" ||
		(e.auto && g.NumEdges() >= gpuMinArcsPerCore*e.effectiveThreads() && cuda.Available().Available)
	if useGPU {
		parent, t, err := gpuGraph(g)
		if err == nil {
			e.backend = "gpu"
			return ecl.NewResult(parent, e.threads), &gpuTimes{t.Upload.Seconds(), t.Kernel.Seconds(), t.Download.Seconds()}, nil
		}
		if e.backend == "gpu" {
			return nil, nil, err
		}
		fmt.Fprintf(stderr, "cclabel: warning: GPU failed, labeling on the CPU: %v\n", err)
		e.backend = "cpu"
	}
	res, err := ecl.Components(g, e.options())
	return res, nil, err
}

// gpuGraph runs ECL-CC on GPU 0.
func gpuGraph(g *ecl.Graph) ([]int32, cuda.Timing, error) {
	d, err := cuda.Open()
	if err != nil {
		return nil, cuda.Timing{}, err
	}
	defer d.Close()
	c, err := d.NewContext(0)
	if err != nil {
		return nil, cuda.Timing{}, err
	}
	defer c.Close()
	return c.GraphComponents(g)
}
