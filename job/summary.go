package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/cmd/cclabel/internal/clix"
	"github.com/cclabel/cclabel/ecl"
	"github.com/urfave/cli/v3"
)

// labelerOptions reads --backend, --algo and --threads into the facade's
// options; warnings go to stderr.
func labelerOptions(cmd *cli.Command, stderr io.Writer) (cclabel.Options, error) {
	opts := cclabel.Options{Warnings: stderr}
	if name := cmd.String("algo"); name != "" { // commands without --algo use ECL-CC
		algo, err := ecl.ParseAlgorithm(name)
		if err != nil {
			return opts, usageError{Err: err}
		}
		opts.Algorithm = algo
	}
	if opts.Threads = cmd.Int("threads"); opts.Threads < 0 {
		return opts, usagef("--threads %d: must be 0 (all cores) or more", opts.Threads)
	}
	backend, err := cclabel.ParseBackend(cmd.String("backend"))
	if err != nil {
		return opts, usagef("--backend %q: want auto, gpu, cpu or serial", cmd.String("backend"))
	}
	opts.Backend = backend
	if spec := cmd.String("gpus"); spec != "" { // only volume has --gpus
		if opts.GPUs, err = parseGPUs(spec); err != nil {
			return opts, err
		}
		if len(opts.GPUs) > 1 && backend != cclabel.BackendGPU && backend != cclabel.BackendAuto {
			return opts, usagef("--gpus %s: needs --backend gpu or auto", spec)
		}
	}
	return opts, nil
}

// parseGPUs reads --gpus: a count N (GPUs 0..N-1) or a comma-separated
// list of ordinals (a repeated one shares its GPU, for trials).
func parseGPUs(spec string) ([]int, error) {
	parts := strings.Split(spec, ",")
	if len(parts) == 1 {
		n, err := strconv.Atoi(spec)
		if err != nil || n < 1 || n > 64 {
			return nil, usagef("--gpus %q: want a count from 1 to 64 or a list of GPU ordinals such as 0,1", spec)
		}
		gpus := make([]int, n)
		for i := range gpus {
			gpus[i] = i
		}
		return gpus, nil
	}
	gpus := make([]int, len(parts))
	for i, p := range parts {
		g, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || g < 0 {
			return nil, usagef("--gpus %q: %q is not a GPU ordinal", spec, p)
		}
		gpus[i] = g
	}
	return gpus, nil
}

// newLabeler returns the labeler the flags ask for; --backend gpu fails
// when no GPU can be used.
func newLabeler(cmd *cli.Command, stderr io.Writer) (*cclabel.Labeler, error) {
	opts, err := labelerOptions(cmd, stderr)
	if err != nil {
		return nil, err
	}
	return cclabel.New(opts)
}

// gpuTimes are the GPU stages in the JSON summary.
type gpuTimes struct {
	Upload   float64 `json:"upload"`
	Kernel   float64 `json:"kernel"`
	Download float64 `json:"download"`
}

// gpuTimesOf returns the GPU stages of a labeling call, nil when it ran on
// the CPU.
func gpuTimesOf(backend cclabel.Backend, t cclabel.Timing) *gpuTimes {
	if backend != cclabel.BackendGPU {
		return nil
	}
	return &gpuTimes{t.Upload.Seconds(), t.Kernel.Seconds(), t.Download.Seconds()}
}

// labelStages split the label stage's seconds, as the JSON summary
// reports them: the GPU's start (first GPU file only), allocating and
// first touching the label buffer, the copies and the labeling itself, and
// the joining of slabs, and the rest (size filters, renumbering, checks
// outside the labeling call).
type labelStages struct {
	GPUSetup float64 `json:"gpu_setup"`
	Allocate float64 `json:"allocate"`
	Upload   float64 `json:"upload"`
	Kernel   float64 `json:"kernel"`
	Download float64 `json:"download"`
	// Join is joining the slabs of a volume labeled in parts (past the
	// kernels' reach, or on several GPUs) and relabeling them.
	Join  float64 `json:"join,omitempty"`
	Other float64 `json:"other"`
	// WhileReading is labeling done while the input was still being read
	// (volumes on the CPU): not part of the label stage.
	WhileReading float64 `json:"while_reading,omitempty"`
}

// labelStagesOf splits a label stage of label seconds by the labeling
// calls' summed timing t.
func labelStagesOf(label float64, t cclabel.Timing) labelStages {
	s := labelStages{GPUSetup: t.Setup.Seconds(), Allocate: t.Allocate.Seconds(), Upload: t.Upload.Seconds(),
		Kernel: t.Kernel.Seconds(), Download: t.Download.Seconds(), Join: t.Join.Seconds()}
	s.Other = max(0, label-(s.GPUSetup+s.Allocate+s.Upload+s.Kernel+s.Download+s.Join))
	return s
}

// stageTimes are the seconds spent per stage, as the JSON summary reports.
type stageTimes struct {
	Read  float64 `json:"read"`
	Label float64 `json:"label"`
	Write float64 `json:"write"`
	Total float64 `json:"total"`
}

// writeJSON prints v as one indented JSON object (clix.WriteJSON).
func writeJSON(w io.Writer, v any) error { return clix.WriteJSON(w, v) }
