package cclabel

import "fmt"

// Backend names where labeling runs.
type Backend string

const (
	// BackendAuto picks the GPU or the CPU for each input. It labels on the
	// GPU when one is usable and the input is large enough for the GPU to
	// win, else on the CPU.
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

// Crossover sizes for [BackendAuto], from the label stage of the CLI (what a
// user waits for: allocation, copies and the GPU's start included). Opening
// the driver and context costs a fixed time once per labeler, so a raster
// goes to the GPU from a larger size while the context is closed than once it
// is open. Each value is the size from which the GPU's label stage overtakes
// the CPU's on every core of the reference GPU host.
const (
	// GPUMinVoxelsPerCore is the raster size from which [BackendAuto] labels
	// on a closed GPU. It counts voxels per CPU thread and applies while the
	// GPU context is not open yet.
	GPUMinVoxelsPerCore = 1 << 23
	// GPUMinVoxelsPerCoreOpen is [GPUMinVoxelsPerCore] once the GPU context
	// is open. The context opens with a first GPU raster, or with
	// [Labeler.Prepare], or once a background [Labeler.Start] has opened it.
	GPUMinVoxelsPerCoreOpen = 1 << 18
	// GPUMinArcsPerCore is the graph size from which [BackendAuto] labels
	// graphs on the GPU. It counts stored arcs per CPU thread: from this size
	// a CPU core's share takes longer than the GPU's start-up and copies.
	GPUMinArcsPerCore = 1 << 23
)
