package cclabel

import "fmt"

// Backend names where labeling runs.
type Backend string

const (
	// BackendAuto picks the GPU or the CPU for each input. It labels on the
	// GPU when one is usable and a cost model (docs/gpu.md) expects the GPU,
	// its copies and what remains of its start-up included, to finish
	// clearly sooner than the CPU threads; else on the CPU.
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
