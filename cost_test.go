package cclabel

import (
	"fmt"
	"testing"
	"time"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestWorkloads checks the items and bytes the cost model counts for
// rasters and graphs.
func TestWorkloads(t *testing.T) {
	r2, _ := imagegraph.NewRaster(8, 4, 1, make([]uint8, 32))
	r3, _ := imagegraph.NewRaster(4, 4, 4, make([]uint16, 64))
	g, err := ecl.FromEdges(5, []int32{0, 1, 3}, []int32{1, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  workload
		want workload
	}{
		{"2D uint8", rasterWork(r2, imagegraph.Rule{Mode: imagegraph.Binary}, false), workload{work2D, 32, 32, 128}},
		{"3D uint16 multilabel, uint16 labels", rasterWork(r3, imagegraph.Rule{Mode: imagegraph.Multilabel}, true), workload{work3DMulti, 64, 128, 128}},
		{"3D uint16 binary", rasterWork(r3, imagegraph.Rule{Mode: imagegraph.Binary}, false), workload{work3D, 64, 128, 256}},
		{"graph", graphWork(g), workload{workGraph, 6, 4*6 + 8*6, 4 * 5}},
	} {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
}

// TestCostModel checks the choice's rules: the estimates follow the model's
// formula; a larger input never moves work from the GPU to the CPU, nor do
// fewer CPU threads or less start-up left; a start-up longer than the
// CPU's whole estimate keeps work on the CPU.
func TestCostModel(t *testing.T) {
	c := referenceRates
	for kind := range numWorkKinds {
		for _, items := range []float64{1e3, 1e6, 1e8, 1e9, 4e9} {
			w := workload{kind: kind, items: items, upload: items, download: 4 * items}
			for _, threads := range []int{1, 2, 16, 128} {
				for _, setup := range []time.Duration{0, 50 * time.Millisecond, c.setup} {
					name := fmt.Sprintf("kind %d, %g items, %d threads, %v left", kind, items, threads, setup)
					cpu, gpu := c.estimate(w, threads, setup)
					wantCPU := items / (c.cpu[kind] * float64(threads))
					wantGPU := setup.Seconds() + items/c.upload + 4*items/c.download + items/c.gpu[kind]
					if !near(cpu, wantCPU) || !near(gpu, wantGPU) {
						t.Fatalf("%s: estimates %g, %g; want %g, %g", name, cpu, gpu, wantCPU, wantGPU)
					}
					if !c.gpuPays(w, threads, setup) {
						continue
					}
					bigger := workload{kind: kind, items: 2 * items, upload: 2 * w.upload, download: 2 * w.download}
					if !c.gpuPays(bigger, threads, setup) {
						t.Errorf("%s: the GPU pays, but not for twice the input", name)
					}
					if !c.gpuPays(w, max(threads/2, 1), setup) {
						t.Errorf("%s: the GPU pays, but not against fewer threads", name)
					}
					if !c.gpuPays(w, threads, setup/2) {
						t.Errorf("%s: the GPU pays, but not with less start-up left", name)
					}
					if setup.Seconds() >= cpu {
						t.Errorf("%s: the GPU pays though its start-up alone outlasts the CPU", name)
					}
				}
			}
		}
	}
}

// near reports whether a and b agree to 1e-9 relative.
func near(a, b float64) bool { return a == b || (a-b)/b < 1e-9 && (b-a)/b < 1e-9 }

// TestSetupLeft checks the start-up the cost model counts in each state of
// the GPU's start.
func TestSetupLeft(t *testing.T) {
	full := referenceRates.setup
	opened := make(chan struct{})
	close(opened)
	for _, c := range []struct {
		name     string
		start    *gpuStart
		min, max time.Duration
	}{
		{"not started", nil, full, full},
		{"just started", &gpuStart{opened: make(chan struct{}), began: time.Now()}, full * 9 / 10, full},
		{"half way", &gpuStart{opened: make(chan struct{}), began: time.Now().Add(-full / 2)}, full / 3, full / 2},
		{"overdue", &gpuStart{opened: make(chan struct{}), began: time.Now().Add(-10 * full)}, full / 10, full / 10},
		{"done", &gpuStart{opened: opened, began: time.Now()}, 0, 0},
	} {
		l := &Labeler{start: c.start}
		if got := l.setupLeft(); got < c.min || got > c.max {
			t.Errorf("%s: %v left, want %v to %v", c.name, got, c.min, c.max)
		}
	}
}

// TestCostModelOnReferenceRows checks the choices of the reference rates on
// the rows of bench/whole_commands.py as measured on the reference host
// (16 threads): the GPU where its whole command was faster, the CPU where
// it was not. setupLeft is what the GPU's background start had left when
// the label stage began (the read before it: PNG 0.3 s, .nii.gz 0.7 s,
// .npy nothing, .egr 0.07 s and 1.2 s).
func TestCostModelOnReferenceRows(t *testing.T) {
	const ms = time.Millisecond
	raster := func(w, h, d int, kind workKind, sample, labels float64) workload {
		n := float64(w) * float64(h) * float64(d)
		return workload{kind: kind, items: n, upload: sample * n, download: labels * n}
	}
	graph := func(v, e float64) workload {
		return workload{kind: workGraph, items: e, upload: 4*e + 8*v, download: 4 * v}
	}
	for _, c := range []struct {
		row   string
		w     workload
		left  time.Duration
		isGPU bool
	}{
		{"label 8192² blobs .png", raster(8192, 8192, 1, work2D, 1, 4), 100 * ms, false},
		{"volume 512³ blobs .nii.gz", raster(512, 512, 512, work3D, 1, 2), 0, true},
		{"volume 1024³ random .npy", raster(1024, 1024, 1024, work3D, 1, 2), 400 * ms, true},
		{"volume 512³ neurites .npy", raster(512, 512, 512, work3DMulti, 4, 2), 400 * ms, false},
		{"graph random 2^23", graph(1<<23, 67108834), 330 * ms, false},
		{"graph R-MAT 24/16", graph(1<<24, 520756792), 0, false},
	} {
		if got := referenceRates.gpuPays(c.w, 16, c.left); got != c.isGPU {
			cpu, gpu := referenceRates.estimate(c.w, 16, c.left)
			t.Errorf("%s: GPU %v (estimates: CPU %.3f s, GPU %.3f s), want %v", c.row, got, cpu, gpu, c.isGPU)
		}
	}
}

// TestStartPays checks the background start's choice: on the reference
// rows of bench/whole_commands.py, a 512³ .nii.gz, whose read (about half a
// second of inflating) hides the start, starts the GPU; so does a 1024³
// .npy, mapped at once, which pays for the whole start; the same 512³
// volume mapped does not, nor does a 2D image.
func TestStartPays(t *testing.T) {
	shape := func(w, h, d int) *imagegraph.Raster {
		return &imagegraph.Raster{Width: w, Height: h, Depth: d, Kind: imagegraph.Uint8}
	}
	binary := imagegraph.Rule{Mode: imagegraph.Binary}
	const ms = time.Millisecond
	for _, c := range []struct {
		name    string
		r       *imagegraph.Raster
		reading time.Duration
		want    bool
	}{
		{"512³ .nii.gz", shape(512, 512, 512), 447 * ms, true},
		{"512³ .npy", shape(512, 512, 512), 0, false},
		{"512³, read in 0.2 s", shape(512, 512, 512), 200 * ms, false},
		{"1024³ .npy", shape(1024, 1024, 1024), 0, true},
		{"8192² image", shape(8192, 8192, 1), 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := referenceRates.startPays(c.r, binary, 16, c.reading); got != c.want {
				t.Errorf("startPays = %v, want %v", got, c.want)
			}
		})
	}
}

// TestStartFor checks which inputs start the GPU in the background: under
// auto only those the GPU wins even when waiting for its whole start, and
// only where a driver is present; where no GPU is usable GPUStarted is
// false, at once without a driver, once the start fails with one.
func TestStartFor(t *testing.T) {
	shape := func(w, h, d int, kind imagegraph.SampleKind) *imagegraph.Raster {
		return &imagegraph.Raster{Width: w, Height: h, Depth: d, Kind: kind}
	}
	binary := imagegraph.Rule{Mode: imagegraph.Binary}
	for _, c := range []struct {
		name    string
		backend Backend
		r       *imagegraph.Raster
		starts  bool
	}{
		{"auto, 8192² image", BackendAuto, shape(8192, 8192, 1, imagegraph.Uint8), false},
		{"auto, 512³ volume", BackendAuto, shape(512, 512, 512, imagegraph.Uint8), false},
		{"auto, 1024³ volume", BackendAuto, shape(1024, 1024, 1024, imagegraph.Uint8), true},
		{"gpu, 64² image", BackendGPU, shape(64, 64, 1, imagegraph.Uint8), true},
		{"cpu, 1024³ volume", BackendCPU, shape(1024, 1024, 1024, imagegraph.Uint8), false},
	} {
		l, err := New(Options{Backend: c.backend, Threads: 16})
		if err != nil && c.backend == BackendGPU {
			continue // no GPU here: New fails without StartGPU
		}
		if err != nil {
			t.Fatal(err)
		}
		l.StartFor(c.r, binary, 0)
		l.gpuMu.Lock()
		started := l.start != nil || l.ctx != nil
		l.gpuMu.Unlock()
		// Under auto a machine without a driver starts nothing.
		want := c.starts && (c.backend != BackendAuto || driverPresent())
		if started != want {
			t.Errorf("%s: started %v, want %v", c.name, started, want)
		}
		l.Close()
	}
}

// TestGPUStarted checks which labelers count their GPU as in play: under
// gpu always, under cpu never, under auto not before a start, and not after
// a start on a machine without a GPU once it has failed.
func TestGPUStarted(t *testing.T) {
	if l, err := New(Options{Backend: BackendCPU}); err != nil || l.GPUStarted() {
		t.Fatalf("cpu: started %v (%v)", l != nil && l.GPUStarted(), err)
	}
	l, err := New(Options{Backend: BackendAuto, Threads: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.GPUStarted() {
		t.Fatal("auto: started before any start")
	}
	small := &imagegraph.Raster{Width: 64, Height: 64, Depth: 1, Kind: imagegraph.Uint8}
	l.StartFor(small, imagegraph.Rule{Mode: imagegraph.Binary}, 0)
	if l.GPUStarted() {
		t.Fatal("auto: a small image started the GPU")
	}
	if Devices().Available {
		return
	}
	big := &imagegraph.Raster{Width: 2048, Height: 2048, Depth: 1024, Kind: imagegraph.Uint8}
	l.StartFor(big, imagegraph.Rule{Mode: imagegraph.Binary}, 0)
	if !driverPresent() && l.GPUStarted() {
		t.Fatal("auto: started on a machine without a driver")
	}
	l.gpuMu.Lock()
	s := l.start
	l.gpuMu.Unlock()
	if s != nil {
		<-s.opened
	}
	if l.GPUStarted() {
		t.Fatal("auto: GPUStarted after the start failed on a machine without a usable GPU")
	}
}
