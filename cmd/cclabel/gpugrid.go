package main

import (
	"fmt"
	"io"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/imagegraph"
)

// gpuMinVoxelsPerCore sets the raster size from which --backend auto
// labels on the GPU: that many voxels per CPU core. Opening the driver and
// context costs about 0.2 s per run and the copies about 0.3 ns a voxel,
// while one CPU core labels a random binary image at about 3.5 ns a pixel.
const gpuMinVoxelsPerCore = 1 << 25

// labelRaster labels one raster on the backend the engine chose: the GPU
// for --backend gpu, or under auto for a large raster of a type the
// kernels take when a GPU is
// usable, the CPU otherwise. Under auto any GPU failure gives a warning
// and the CPU result. It sets e.backend to the backend that labeled.
func labelRaster(r *imagegraph.Raster, rule imagegraph.Rule, opts imagegraph.Options, e *engine, stderr io.Writer) (*imagegraph.Labels, *gpuTimes, error) {
	fits := cuda.SupportsRaster(r)
	switch {
	case e.backend == "gpu" && !fits:
		return nil, nil, fmt.Errorf("--backend gpu: the GPU kernels do not take %s samples (uint8, uint16, int16, uint32, int32 and float32 only)", r.Kind)
	case e.backend == "gpu", e.auto && fits && r.Len() >= gpuMinVoxelsPerCore*e.effectiveThreads() && cuda.Available().Available:
		labels, t, err := gpuRaster(r, opts.Connectivity, rule)
		if err == nil {
			e.backend = "gpu"
			return labels, &gpuTimes{t.Upload.Seconds(), t.Kernel.Seconds(), t.Download.Seconds()}, nil
		}
		if e.backend == "gpu" {
			return nil, nil, err
		}
		fmt.Fprintf(stderr, "cclabel: warning: GPU failed, labeling on the CPU: %v\n", err)
		e.backend = "cpu"
	}
	labels, err := imagegraph.Label(r, rule, opts, nil)
	return labels, nil, err
}

// gpuRaster labels a uint8 raster on GPU 0.
func gpuRaster(r *imagegraph.Raster, conn int, rule imagegraph.Rule) (*imagegraph.Labels, cuda.Timing, error) {
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
	data, n, t, err := c.LabelGrid(r, conn, rule)
	if err != nil {
		return nil, t, err
	}
	return &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: data, Count: n}, t, nil
}
