package cclabel

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/ecl"
)

// Options configure a [Labeler].
type Options struct {
	// Backend is where labeling runs; "" means [BackendAuto].
	Backend Backend
	// Threads is the number of goroutines of the CPU backend; 0 means all
	// cores (GOMAXPROCS). [BackendSerial] always uses one.
	Threads int
	// GPU is the ordinal of the GPU to use (0 for the first).
	GPU int
	// GPUs, when it names more than one ordinal, spreads each large 3D raster
	// over those GPUs ([BackendGPU] or [BackendAuto]): its planes are split
	// into one slab range per GPU, labeled concurrently and joined at the
	// seams, with the labels one GPU gives. GPUs[0] replaces GPU. An ordinal
	// may repeat (contexts sharing one GPU, for tests).
	GPUs []int
	// Algorithm is the graph algorithm: [ecl.ECL] (default), [ecl.ECLaf],
	// [ecl.Afforest] or [ecl.Auto] (the one measured fastest for the graph's
	// shape on the backend that runs: [ecl.ChooseAlgorithm] on the CPU,
	// [cuda.ChooseGraphAlgorithm] on the GPU).
	Algorithm ecl.Algorithm
	// Warnings receives a line when the GPU fails under [BackendAuto] and
	// labeling moves to the CPU; nil discards it.
	Warnings io.Writer
	// StartGPU makes [New] begin opening the GPU in the background
	// ([Labeler.Start]) under [BackendGPU]. [New] then does not wait for the
	// driver's probe: a GPU that cannot be used fails the first labeling
	// instead of New. Under [BackendAuto] the GPU is started by
	// [Labeler.StartFor] once the input's size shows that it may pay, or by
	// [Labeler.Start] or [Labeler.Prepare].
	StartGPU bool
}

// Timing is where one labeling call spent its time.
type Timing struct {
	// Total is the wall time of the call.
	Total time.Duration
	// Setup is loading the GPU driver and creating its context, on the
	// first call that runs on the GPU (zero on later calls and the CPU):
	// the part of it that the call waited for, when [Labeler.Start] began
	// it earlier.
	Setup time.Duration
	// Allocate is getting the label buffer ready on the host: allocating
	// it and first touching its pages (zero when the caller passed one).
	// On the GPU it is the buffer made while the GPU's start was still
	// under way, before waiting for it; otherwise it is part of Download,
	// which fills a fresh buffer.
	Allocate time.Duration
	// Kernel is the labeling itself with the data resident: the GPU
	// kernels, or the CPU labeling into a ready buffer.
	Kernel time.Duration
	// Upload and Download are the copies to and from the GPU (zero on
	// the CPU).
	Upload, Download time.Duration
	// Join is joining the slabs of a raster labeled in parts (past the
	// kernels' reach, or spread over several GPUs) at their seams and
	// relabeling them, on the host; zero otherwise.
	Join time.Duration
}

// Plus returns the stage-by-stage sum of t and u. It adds up, for instance,
// the frames of one volume.
func (t Timing) Plus(u Timing) Timing {
	return Timing{Total: t.Total + u.Total, Setup: t.Setup + u.Setup, Allocate: t.Allocate + u.Allocate,
		Kernel: t.Kernel + u.Kernel, Upload: t.Upload + u.Upload, Download: t.Download + u.Download, Join: t.Join + u.Join}
}

// Labeler labels rasters and graphs on the backend its options choose. Under
// [BackendAuto] and [BackendGPU] it opens the GPU's context on the first
// input that goes there and keeps it for the inputs after it, so a run of
// many files pays the driver start-up once; Close releases it.
//
// A Labeler is safe for concurrent use: CPU labeling calls run in
// parallel, GPU calls take turns on the one context.
type Labeler struct {
	opts    Options
	threads int // effective CPU goroutines

	gpuMu   sync.Mutex
	probed  bool        // status holds the probe's answer
	status  cuda.Status // the driver probe (BackendAuto, BackendGPU)
	driver  *cuda.Driver
	ctx     *cuda.Context
	start   *gpuStart   // the opening under way, or done and not yet taken
	release *gpuRelease // the last Release, until Close waits for it
	gpuDead bool        // the GPU failed under BackendAuto: the CPU from now on

	// slabVoxels is the most voxels LabelRaster gives one kernel; larger
	// rasters are labeled in slabs (maxSlabVoxels; tests lower it).
	slabVoxels int
	// peers label their share of a raster spread over Options.GPUs, one
	// labeler per GPU after the first.
	peers []*Labeler
}

// New returns a [Labeler] for opts. It fails on invalid options and, for
// [BackendGPU] without [Options].StartGPU, when no usable GPU has the
// ordinal asked for.
func New(opts Options) (*Labeler, error) {
	if opts.Backend == "" {
		opts.Backend = BackendAuto
	}
	if _, err := ParseBackend(string(opts.Backend)); err != nil {
		return nil, err
	}
	if opts.Threads < 0 {
		return nil, fmt.Errorf("cclabel: %d threads: want 0 (all cores) or more", opts.Threads)
	}
	if len(opts.GPUs) > 0 {
		opts.GPU = opts.GPUs[0]
	}
	for _, g := range append([]int{opts.GPU}, opts.GPUs...) {
		if g < 0 {
			return nil, fmt.Errorf("cclabel: GPU ordinal %d: want 0 or more", g)
		}
	}
	if len(opts.GPUs) > 1 && opts.Backend != BackendGPU && opts.Backend != BackendAuto {
		return nil, fmt.Errorf("cclabel: %d GPUs with the %s backend: want gpu or auto", len(opts.GPUs), opts.Backend)
	}
	if !opts.Algorithm.Valid() {
		return nil, fmt.Errorf("cclabel: unknown algorithm %v", opts.Algorithm)
	}
	if opts.Warnings == nil {
		opts.Warnings = io.Discard
	}
	if len(opts.GPUs) > 1 {
		// The peers warn from their own goroutines.
		opts.Warnings = &lockedWriter{w: opts.Warnings}
	}
	l := &Labeler{opts: opts, threads: opts.Threads, slabVoxels: maxSlabVoxels}
	switch {
	case opts.Backend == BackendSerial:
		l.threads = 1
	case l.threads == 0:
		l.threads = runtime.GOMAXPROCS(0)
	}
	if opts.Backend == BackendGPU && !opts.StartGPU {
		if err := l.gpuUsable(); err != nil {
			return nil, err
		}
	}
	for _, g := range opts.GPUs[min(1, len(opts.GPUs)):] {
		peer := opts
		peer.GPU, peer.GPUs = g, nil
		p, err := New(peer)
		if err != nil {
			return nil, err
		}
		l.peers = append(l.peers, p)
	}
	if opts.StartGPU && opts.Backend == BackendGPU { // the peers have started themselves
		l.Start()
	}
	return l, nil
}

// Backend returns the backend the options asked for. It is [BackendAuto] when
// they named none.
func (l *Labeler) Backend() Backend { return l.opts.Backend }

// Threads returns the number of goroutines the CPU backend uses.
func (l *Labeler) Threads() int { return l.threads }

// MayUseGPU reports whether the labeler may label on the GPU. It may under
// [BackendGPU], or under [BackendAuto] when a GPU is usable and has not
// failed.
func (l *Labeler) MayUseGPU() bool {
	switch l.opts.Backend {
	case BackendGPU:
		return true
	case BackendAuto:
		l.gpuMu.Lock()
		defer l.gpuMu.Unlock()
		return !l.gpuDead && l.gpuUsableLocked() == nil
	}
	return false
}

// GPUStarted reports whether the labeler's GPU is in play: always under
// [BackendGPU]; under [BackendAuto] once it is being opened or is open
// ([Labeler.Start], [Labeler.StartFor], [Labeler.Prepare], a first GPU
// labeling) and has not failed. Unlike [Labeler.MayUseGPU] it never probes
// the driver. A caller that would commit an input to the CPU early (labeling
// it while it is read, say) asks it: under auto a GPU not started by then
// would not pay for that input.
func (l *Labeler) GPUStarted() bool {
	switch l.opts.Backend {
	case BackendGPU:
		return true
	case BackendAuto:
		l.gpuMu.Lock()
		defer l.gpuMu.Unlock()
		if l.gpuDead {
			return false
		}
		if s := l.start; s != nil {
			_, failed := s.ended()
			return !failed
		}
		return l.ctx != nil
	}
	return false
}

// Close releases the GPU contexts and drivers, if they were opened. It waits
// for a [Labeler.Start] or [Labeler.Release] under way. The labeler stays
// usable: a later GPU call opens them again.
func (l *Labeler) Close() error {
	var peersErr error
	for _, p := range l.peers {
		peersErr = errors.Join(peersErr, p.Close())
	}
	l.gpuMu.Lock()
	defer l.gpuMu.Unlock()
	err := l.closeLocked()
	if err != nil {
		err = fmt.Errorf("cclabel: closing the GPU: %w", err)
	}
	return errors.Join(err, peersErr)
}

// lockedWriter serializes writes to w: the labelers of several GPUs share
// one warnings writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p to the underlying writer under the lock.
func (lw *lockedWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.w.Write(p)
}

// Share readies l for concurrent labeling and returns how many should label.
// workers is the number of goroutines that would label at once, as in a run
// over many files. The count returned is one when l may use the GPU (inputs
// queue for its context) or is serial; otherwise all of them, with l's
// threads split between them, at least one each: on the CPU, labeling several
// files at once on fewer threads each beats labeling one at a time on all of
// them. Call it before l labels.
func (l *Labeler) Share(workers int) int {
	if l.MayUseGPU() || l.opts.Backend == BackendSerial || workers < 1 {
		return 1
	}
	l.threads = max(1, l.threads/workers)
	return workers
}
