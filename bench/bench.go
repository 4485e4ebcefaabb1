// Package bench measures labeling throughput per backend on synthetic
// inputs.
//
// It is the benchmark of "cclabel bench": a random graph, images and
// volumes under the rules and connectivities of a [Plan]. The scripts
// beside it compare cclabel with scipy.ndimage and other peers.
package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// Result is one measurement: a workload on a backend.
type Result struct {
	Workload string  `json:"workload"`
	Backend  string  `json:"backend"`
	Items    int64   `json:"items"`
	Unit     string  `json:"unit"` // what Items counts: arcs or voxels
	KernelMS float64 `json:"kernel_ms"`
	TotalMS  float64 `json:"end_to_end_ms"`
	PerSec   float64 `json:"millions_per_second"` // millions of items per second of kernel time
	Note     string  `json:"note,omitempty"`      // why it was not measured
}

// Job is one workload: a generated input under a rule and connectivity.
//
// Each job's input is generated once and labeled on every backend.
type Job struct {
	Name  string
	Unit  string // what Items counts: arcs or voxels
	Items int64
	run   func(l *cclabel.Labeler) (kernel, total time.Duration, err error)
}

// Measure labels the job's input repeat times and returns the median times.
//
// It labels at least once, on the labeler of the named backend. The
// [Result] holds the median kernel time (the labeling itself, data
// resident) and end-to-end time (with the copies to and from the GPU).
func (j *Job) Measure(l *cclabel.Labeler, backend string, repeat int) (Result, error) {
	r := Result{Workload: j.Name, Backend: backend, Items: j.Items, Unit: j.Unit}
	var kernel, total []float64
	for range max(repeat, 1) {
		k, t, err := j.run(l)
		if err != nil {
			return r, fmt.Errorf("bench %s on %s: %w", j.Name, backend, err)
		}
		kernel, total = append(kernel, k.Seconds()*1e3), append(total, t.Seconds()*1e3)
	}
	r.KernelMS, r.TotalMS = median(kernel), median(total)
	r.PerSec = float64(j.Items) / r.KernelMS / 1e3
	return r, nil
}

// Skipped is the result of a backend that cannot run the job, and why.
func (j *Job) Skipped(backend, why string) Result {
	return Result{Workload: j.Name, Backend: backend, Items: j.Items, Unit: j.Unit, Note: "skipped: " + why}
}

// median returns the median of values (which it sorts).
func median(values []float64) float64 {
	slices.Sort(values)
	return values[len(values)/2]
}

// Plan holds the image and volume settings of a benchmark.
type Plan struct {
	// Rules are the foreground rules measured.
	Rules []imagegraph.Rule
	// Conns are the connectivities measured, 2D and 3D ones mixed; nil
	// measures 8 for images and 26 for volumes, or every one with All.
	Conns []int
	All   bool
	// Inputs are the synthetic inputs: random, blobs or cells.
	Inputs []string
}

// ParsePlan reads the --modes, --connectivity and --inputs flags of
// "cclabel bench".
//
// modes holds comma-separated rules ([imagegraph.ParseRule]) or all
// (binary and multilabel at every connectivity), connectivity
// comma-separated connectivities or all ("" for the defaults), and inputs
// comma-separated inputs.
func ParsePlan(modes, connectivity, inputs string) (*Plan, error) {
	p := &Plan{}
	if modes == "all" {
		modes, p.All = "binary,multilabel", true
	}
	for _, m := range strings.Split(modes, ",") {
		r, err := imagegraph.ParseRule(m)
		if err != nil {
			return nil, fmt.Errorf("bench: --modes %q: %v", m, err)
		}
		p.Rules = append(p.Rules, r)
	}
	switch connectivity {
	case "":
	case "all":
		p.All = true
	default:
		p.All = false
		for _, s := range strings.Split(connectivity, ",") {
			n, err := strconv.Atoi(s)
			// 6 is the one 3D connectivity below 8: valid in either dimension.
			if err != nil || (imagegraph.ValidConnectivity(n, false) != nil && imagegraph.ValidConnectivity(n, true) != nil) {
				return nil, fmt.Errorf("bench: --connectivity %q: want 4, 8, 6, 18, 26 or all", s)
			}
			p.Conns = append(p.Conns, n)
		}
	}
	p.Inputs = strings.Split(inputs, ",")
	for _, in := range p.Inputs {
		if in != "random" && in != "blobs" && in != "cells" {
			return nil, fmt.Errorf("bench: --inputs %q: want random, blobs or cells", in)
		}
	}
	return p, nil
}

// Connectivities returns the connectivities measured for 2D or 3D inputs.
func (p *Plan) Connectivities(is3D bool) []int {
	var out []int
	switch {
	case p.All && is3D:
		return []int{6, 18, 26}
	case p.All:
		return []int{4, 8}
	case p.Conns == nil && is3D:
		return []int{26}
	case p.Conns == nil:
		return []int{8}
	}
	for _, c := range p.Conns {
		if (c == 6 || c > 8) == is3D { // 4 and 8 are 2D, 6, 18 and 26 3D
			out = append(out, c)
		}
	}
	return out
}

// Jobs generates the inputs of a workload and returns its jobs.
//
// The workload is graph, image or volume. Its jobs label a random graph of
// 2^20 vertices and k=4 (2^22 when full), or every input, rule and
// connectivity of the plan on a 4096² image (8192²) or a 256³ volume
// (512³). The inputs come from package [gen] with seed 1.
func (p *Plan) Jobs(workload string, full bool) ([]*Job, error) {
	switch workload {
	case "graph":
		n := 1 << 20
		if full {
			n = 1 << 22
		}
		g, err := gen.RandomGraph(n, 4, 1)
		if err != nil {
			return nil, err
		}
		return []*Job{{Name: fmt.Sprintf("graph random %d k=4", n), Unit: "arcs", Items: int64(g.NumEdges()),
			run: func(l *cclabel.Labeler) (time.Duration, time.Duration, error) {
				res, err := l.LabelGraph(g)
				if err != nil {
					return 0, 0, err
				}
				return res.Timing.Kernel, res.Timing.Total, nil
			}}}, nil
	case "image", "volume":
		w, h, d := 4096, 4096, 1
		if workload == "volume" {
			w, h, d = 256, 256, 256
		}
		if full && workload == "image" {
			w, h = 8192, 8192
		} else if full {
			w, h, d = 512, 512, 512
		}
		var jobs []*Job
		dst := make([]uint32, w*h*d) // shared: the jobs run one at a time
		for _, input := range p.Inputs {
			r, desc, err := Raster(input, w, h, d)
			if err != nil {
				return nil, err
			}
			for _, rule := range p.Rules {
				for _, conn := range p.Connectivities(d > 1) {
					name := fmt.Sprintf("%s %dx%dx%d %s %s c%d", workload, w, h, d, desc, rule, conn)
					jobs = append(jobs, &Job{Name: name, Unit: "voxels", Items: int64(r.Len()),
						run: func(l *cclabel.Labeler) (time.Duration, time.Duration, error) {
							res, err := l.LabelRaster(r, rule, conn, dst)
							if err != nil {
								return 0, 0, err
							}
							return res.Timing.Kernel, res.Timing.Total, nil
						}})
				}
			}
		}
		return jobs, nil
	}
	return nil, fmt.Errorf("bench: unknown workload %q", workload)
}

// Raster generates a synthetic input with seed 1 and describes it.
//
// The input is random (p=0.6 in 2D, 0.3 in 3D), blobs (p=0.5) or cells
// (about 4,000, uint32).
func Raster(input string, w, h, d int) (*imagegraph.Raster, string, error) {
	switch input {
	case "cells":
		r, err := gen.CellsRaster(w, h, d, 4000, 1)
		return r, "cells 4000", err
	case "blobs":
		radius := 4
		if d > 1 {
			radius = 3
		}
		r, err := gen.BlobsRaster(w, h, d, 0.5, radius, 1)
		return r, "blobs p=0.5", err
	}
	p := 0.6
	if d > 1 {
		p = 0.3
	}
	r, err := gen.RandomRaster(w, h, d, p, 1)
	return r, fmt.Sprintf("random p=%.1f", p), err
}
