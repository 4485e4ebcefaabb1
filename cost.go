package cclabel

import (
	"os"
	"time"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
)

// workKind is the kind of labeling work, for the backend choice's rates.
type workKind int

const (
	work2D      workKind = iota // a 2D raster
	work3D                      // a 3D raster, binary or threshold
	work3DMulti                 // a 3D raster, multilabel
	workGraph                   // a CSR graph
	numWorkKinds
)

// A workload is one labeling call as [BackendAuto]'s choice sees it.
type workload struct {
	kind     workKind
	items    float64 // voxels or stored arcs
	upload   float64 // bytes copied to the GPU
	download float64 // bytes copied back
}

// rasterWork is the workload of labeling r under rule, its labels coming
// back as uint16 when narrow is set.
func rasterWork(r *imagegraph.Raster, rule imagegraph.Rule, narrow bool) workload {
	kind := work2D
	if r.Is3D() {
		kind = work3D
		if rule.Mode == imagegraph.Multilabel {
			kind = work3DMulti
		}
	}
	out := 4.0
	if narrow {
		out = 2
	}
	n := float64(r.Len())
	return workload{kind: kind, items: n, upload: n * float64(r.Kind.Size()), download: n * out}
}

// graphWork is the workload of labeling g.
func graphWork(g *ecl.Graph) workload {
	v, e := float64(g.NumVertices()), float64(g.NumEdges())
	return workload{kind: workGraph, items: e, upload: 4*e + 8*(v+1), download: 4 * v}
}

// costRates are the rates [BackendAuto]'s cost model uses.
type costRates struct {
	// cpu is the items labeled per second by one CPU thread when all
	// cores of the host work, per kind (their own memory traffic and
	// allocation included).
	cpu [numWorkKinds]float64
	// gpu is the items labeled per second by the GPU's kernels, per kind.
	gpu [numWorkKinds]float64
	// upload and download are the bytes per second copied to the GPU and
	// back into fresh host memory, staging included.
	upload, download float64
	// setup is the time to start the GPU when nothing of it overlaps:
	// loading the driver, probing, creating the context and loading the
	// kernels.
	setup time.Duration
}

// referenceRates are the rates measured on the reference host (one H100,
// 16 cores) by bench/whole_commands.py; docs/gpu.md gives the table. Each
// is the slower end of what was measured, except the CPU's graph rate,
// which is R-MAT's: the GPU's copies of a graph cost more than the CPU's
// labeling of the graphs measured, so graphs stay on the CPU of such a host.
var referenceRates = costRates{
	cpu:      [numWorkKinds]float64{work2D: 100e6, work3D: 60e6, work3DMulti: 40e6, workGraph: 250e6},
	gpu:      [numWorkKinds]float64{work2D: 60e9, work3D: 60e9, work3DMulti: 40e9, workGraph: 50e9},
	upload:   18e9,
	download: 6e9,
	setup:    400 * time.Millisecond,
}

// gpuMargin is how much faster the GPU must be expected to be for auto to
// take it: a close call goes to the CPU, which has no start-up to lose.
const gpuMargin = 0.8

// estimate returns the seconds the CPU, on threads goroutines, and the GPU,
// with setupLeft of its start still to wait for, are expected to take to
// label w.
func (c costRates) estimate(w workload, threads int, setupLeft time.Duration) (cpu, gpu float64) {
	cpu = w.items / (c.cpu[w.kind] * float64(max(threads, 1)))
	gpu = setupLeft.Seconds() + w.upload/c.upload + w.download/c.download + w.items/c.gpu[w.kind]
	return cpu, gpu
}

// gpuPays reports whether the GPU is expected to label w clearly sooner
// than threads CPU goroutines, with setupLeft of its start still ahead.
func (c costRates) gpuPays(w workload, threads int, setupLeft time.Duration) bool {
	cpu, gpu := c.estimate(w, threads, setupLeft)
	return gpu < gpuMargin*cpu
}

// gpuPays reports whether [BackendAuto] should send w to the GPU: whether
// the cost model expects the GPU, its remaining start-up included, to label
// w clearly sooner than the labeler's CPU threads.
func (l *Labeler) gpuPays(w workload) bool {
	return referenceRates.gpuPays(w, l.threads, l.setupLeft())
}

// setupLeft is how much of the GPU's start-up a labeling would still wait
// for: none once the context is open; while a background start runs, the
// reference start-up less the time it has run (at least a tenth of it, as
// it has not finished); otherwise the whole reference start-up.
func (l *Labeler) setupLeft() time.Duration {
	l.gpuMu.Lock()
	defer l.gpuMu.Unlock()
	if l.ctx != nil {
		return 0
	}
	s := l.start
	if s == nil {
		return referenceRates.setup
	}
	if ended, _ := s.ended(); ended {
		return 0 // open, or failed: then the GPU is not used at all
	}
	return max(referenceRates.setup-time.Since(s.began), referenceRates.setup/10)
}

// StartFor begins opening the GPU in the background ([Labeler.Start]) when
// [BackendAuto] could label a raster of r's size and sample type under rule
// on the GPU even after waiting for what reading (how long the caller's
// read will take) leaves of the start-up, its labels copied back as uint16.
// Under [BackendGPU] it is Start; other backends do nothing. r may hold a
// size and type alone. Auto starts nothing for an input the GPU cannot win,
// which then costs no start and no teardown, or without a driver.
func (l *Labeler) StartFor(r *imagegraph.Raster, rule imagegraph.Rule, reading time.Duration) {
	if l.opts.Backend != BackendAuto || referenceRates.startPays(r, rule, l.threads, reading) && driverPresent() {
		l.Start()
	}
}

// driverPresent reports whether an NVIDIA driver device file (Linux, WSL) exists.
func driverPresent() bool {
	_, err := os.Stat("/dev/nvidiactl")
	_, errWSL := os.Stat("/dev/dxg")
	return err == nil || errWSL == nil
}

// startPays reports whether a GPU started with reading still ahead is
// expected to label r under rule clearly sooner than threads goroutines.
func (c costRates) startPays(r *imagegraph.Raster, rule imagegraph.Rule, threads int, reading time.Duration) bool {
	return c.gpuPays(rasterWork(r, rule, true), threads, max(c.setup-reading, 0))
}
