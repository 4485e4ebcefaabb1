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

// rasterLabeler labels rasters on the backend the engine chose. It opens
// the GPU on the first raster that goes there and keeps the context for
// the rasters after it, so a run of many files pays the driver start-up
// once. It is not safe for concurrent use: one goroutine owns it (in
// "cclabel batch", the labeling stage). close releases the GPU.
type rasterLabeler struct {
	engine engine
	stderr io.Writer
	driver *cuda.Driver
	ctx    *cuda.Context
	// gpuFailed is set when the GPU failed under --backend auto: the
	// rasters after it go to the CPU without another try or warning (a
	// CUDA error can leave the context unusable).
	gpuFailed bool
}

// newRasterLabeler returns a labeler for the engine; warnings go to stderr.
func newRasterLabeler(e engine, stderr io.Writer) *rasterLabeler {
	return &rasterLabeler{engine: e, stderr: stderr}
}

// label labels one raster: on the GPU for --backend gpu, or under auto for
// a large raster of a type the kernels take when a GPU is usable, on the
// CPU otherwise. Under auto any GPU failure gives a warning and the CPU
// result, and the labeler stays on the CPU from then on. backend is the
// backend that labeled ("gpu", "cpu" or "serial").
func (l *rasterLabeler) label(r *imagegraph.Raster, rule imagegraph.Rule, opts imagegraph.Options) (labels *imagegraph.Labels, gpu *gpuTimes, backend string, err error) {
	e := l.engine
	fits := cuda.SupportsRaster(r)
	switch {
	case e.backend == "gpu" && !fits:
		return nil, nil, "", fmt.Errorf("--backend gpu: the GPU kernels do not take %s samples (uint8, uint16, int16, uint32, int32 and float32 only)", r.Kind)
	case e.backend == "gpu", e.auto && !l.gpuFailed && fits && r.Len() >= gpuMinVoxelsPerCore*e.effectiveThreads() && cuda.Available().Available:
		labels, t, err := l.gpuRaster(r, opts.Connectivity, rule)
		if err == nil {
			return labels, &gpuTimes{t.Upload.Seconds(), t.Kernel.Seconds(), t.Download.Seconds()}, "gpu", nil
		}
		if e.backend == "gpu" {
			return nil, nil, "", err
		}
		fmt.Fprintf(l.stderr, "cclabel: warning: GPU failed, labeling on the CPU from here on: %v\n", err)
		e.backend = "cpu"
		l.gpuFailed = true
	}
	labels, err = imagegraph.Label(r, rule, opts, nil)
	return labels, nil, e.backend, err
}

// gpuRaster labels a raster on GPU 0, opening the context on first use.
func (l *rasterLabeler) gpuRaster(r *imagegraph.Raster, conn int, rule imagegraph.Rule) (*imagegraph.Labels, cuda.Timing, error) {
	if l.ctx == nil {
		if err := l.open(); err != nil {
			return nil, cuda.Timing{}, err
		}
	}
	data, n, t, err := l.ctx.LabelGrid(r, conn, rule)
	if err != nil {
		return nil, t, err
	}
	return &imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth, Data: data, Count: n}, t, nil
}

// open loads the driver and creates the context of GPU 0.
func (l *rasterLabeler) open() error {
	d, err := cuda.Open()
	if err != nil {
		return err
	}
	c, err := d.NewContext(0)
	if err != nil {
		d.Close()
		return err
	}
	l.driver, l.ctx = d, c
	return nil
}

// close releases the GPU context and driver, if they were opened.
func (l *rasterLabeler) close() {
	if l.ctx != nil {
		l.ctx.Close()
		l.ctx = nil
	}
	if l.driver != nil {
		l.driver.Close()
		l.driver = nil
	}
}
