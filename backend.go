package cclabel

import "fmt"

// Backend names where labeling runs.
type Backend string

const (
	// BackendAuto labels on the GPU when one is usable and the input is
	// large enough for the GPU to win, else on the CPU.
	BackendAuto Backend = "auto"
	// BackendGPU labels on the GPU, failing when none is usable.
	BackendGPU Backend = "gpu"
	// BackendCPU labels with the parallel Go implementation.
	BackendCPU Backend = "cpu"
	// BackendSerial labels with the single-threaded Go implementation.
	BackendSerial Backend = "serial"
)

// ParseBackend parses "auto", "gpu", "cpu" or "serial".
func ParseBackend(s string) (Backend, error) {
	switch b := Backend(s); b {
	case BackendAuto, BackendGPU, BackendCPU, BackendSerial:
		return b, nil
	}
	return "", fmt.Errorf("cclabel: unknown backend %q (want auto, gpu, cpu or serial)", s)
}

// Crossover sizes for BackendAuto. Opening the driver and context costs
// about 0.2 s per run and the copies about 0.3 ns a voxel, while one CPU
// core labels a random binary image at about 3.5 ns a pixel and about 32M
// graph arcs per second (measured on an H200 host with 16 cores).
const (
	// GPUMinVoxelsPerCore is the raster size, in voxels per CPU thread,
	// from which BackendAuto labels rasters on the GPU.
	GPUMinVoxelsPerCore = 1 << 25
	// GPUMinArcsPerCore is the graph size, in stored arcs per CPU thread,
	// from which BackendAuto labels graphs on the GPU.
	GPUMinArcsPerCore = 1 << 23
)
