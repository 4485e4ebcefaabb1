package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl"
	"github.com/urfave/cli/v3"
)

// engine is the labeling backend chosen by --backend, --algo and --threads.
type engine struct {
	backend string // resolved: "gpu", "cpu" or "serial"
	algo    ecl.Algorithm
	threads int  // 0 means all cores
	auto    bool // --backend auto: the GPU may be tried, with the CPU as fallback
}

// engineFromFlags validates --backend, --algo and --threads. gpuKernels
// says whether the command has GPU kernels; --backend gpu fails when it
// has none or no GPU can be used.
func engineFromFlags(cmd *cli.Command, gpuKernels bool) (engine, error) {
	name := cmd.String("algo") // commands without --algo use ECL-CC
	if name == "" {
		name = ecl.ECL.String()
	}
	algo, err := ecl.ParseAlgorithm(name)
	if err != nil {
		return engine{}, usageError{err}
	}
	threads := cmd.Int("threads")
	if threads < 0 {
		return engine{}, usagef("--threads %d: must be 0 (all cores) or more", threads)
	}
	e := engine{algo: algo, threads: threads}
	switch b := cmd.String("backend"); b {
	case "auto":
		e.backend, e.auto = "cpu", gpuKernels
	case "cpu":
		e.backend = "cpu"
	case "serial":
		e.backend = "serial"
		e.threads = 1
	case "gpu":
		if s := cuda.Available(); !s.Available {
			return engine{}, fmt.Errorf("--backend gpu: %s", s.Reason)
		}
		if !gpuKernels {
			return engine{}, fmt.Errorf("--backend gpu: this build has GPU kernels for graphs only (use auto or cpu)")
		}
		e.backend = "gpu"
	default:
		return engine{}, usagef("--backend %q: want auto, gpu, cpu or serial", b)
	}
	return e, nil
}

// options returns the ecl options of the engine.
func (e engine) options() ecl.Options {
	return ecl.Options{Algorithm: e.algo, Threads: e.threads, Serial: e.backend == "serial"}
}

// effectiveThreads is the number of goroutines the engine uses.
func (e engine) effectiveThreads() int {
	if e.threads > 0 {
		return e.threads
	}
	return runtime.GOMAXPROCS(0)
}

// stageTimes are the seconds spent per stage, as the JSON summary reports.
type stageTimes struct {
	Read  float64 `json:"read"`
	Label float64 `json:"label"`
	Write float64 `json:"write"`
	Total float64 `json:"total"`
}

// writeJSON prints v as one indented JSON object.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("json summary: %w", err)
	}
	return nil
}
