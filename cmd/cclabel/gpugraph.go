package main

import (
	"fmt"
	"io"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl"
)

// gpuMinArcs is the graph size (stored arcs) from which --backend auto
// labels on the GPU: below it, the driver start-up and the copies cost
// more than the CPU needs (measured on an H200: a 4M-arc grid takes 0.2 ms
// of kernel time but about 150 ms to open the device).
const gpuMinArcs = 1 << 24

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
	useGPU := e.backend == "gpu" || (e.auto && g.NumEdges() >= gpuMinArcs && cuda.Available().Available)
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
