package cclabel

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/internal/parallel"
)

// DeviceStatus says whether the GPU backend can run on this machine. It also
// says why not, and which GPUs the driver sees.
type DeviceStatus = cuda.Status

// Devices probes the CUDA driver (loading libcuda.so.1, listing the GPUs,
// unloading it). It never fails: when the GPU backend cannot run,
// [DeviceStatus].Reason says why.
func Devices() DeviceStatus { return cuda.Available() }

// gpuUsable reports why the labeler's GPU cannot be used (nil when it can).
func (l *Labeler) gpuUsable() error {
	l.gpuMu.Lock()
	defer l.gpuMu.Unlock()
	return l.gpuUsableLocked()
}

// gpuUsableLocked is gpuUsable with gpuMu held; the driver is probed once,
// by the start under way when there is one.
func (l *Labeler) gpuUsableLocked() error {
	if !l.probed {
		if s := l.start; s != nil {
			<-s.probed
			l.status = s.status
		} else {
			l.status = cuda.Available()
		}
		l.probed = true
	}
	return usable(l.status, l.opts.GPU)
}

// usable reports why GPU ordinal cannot be used under status (nil when it
// can).
func usable(status cuda.Status, ordinal int) error {
	switch {
	case !status.Available:
		return fmt.Errorf("gpu backend: %s", status.Reason)
	case ordinal >= len(status.Devices):
		return fmt.Errorf("gpu backend: no GPU %d (the driver sees %d)", ordinal, len(status.Devices))
	}
	return nil
}

// gpuOpen reports whether the GPU context is open, or has been opened in
// the background and waits to be taken.
func (l *Labeler) gpuOpen() bool {
	l.gpuMu.Lock()
	defer l.gpuMu.Unlock()
	if l.ctx != nil {
		return true
	}
	if s := l.start; s != nil {
		ended, failed := s.ended()
		return ended && !failed
	}
	return false
}

// gpuStart is the opening of a labeler's GPU on a goroutine of its own:
// loading the driver, probing the devices, creating the context and loading
// the kernels.
type gpuStart struct {
	// probed is closed once status is known, opened once the context is
	// open or the opening failed (err).
	probed, opened chan struct{}
	began          time.Time // when the start was asked for
	status         cuda.Status
	driver         *cuda.Driver
	ctx            *cuda.Context
	err            error
}

// ended reports whether the start has finished, and whether it failed;
// it does not wait.
func (s *gpuStart) ended() (ended, failed bool) {
	select {
	case <-s.opened:
		return true, s.err != nil
	default:
		return false, false
	}
}

// run opens GPU ordinal, filling s, once the release before, if any, is
// done.
func (s *gpuStart) run(ordinal int, before *gpuRelease) {
	defer close(s.opened)
	if before != nil {
		<-before.done
	}
	d, err := cuda.Open()
	if err != nil {
		s.status = cuda.Status{Reason: err.Error()}
	} else {
		s.status = d.Status()
	}
	close(s.probed)
	if err := usable(s.status, ordinal); err != nil {
		if d != nil {
			d.Close()
		}
		s.err = err
		return
	}
	c, err := d.NewContext(ordinal)
	if err != nil {
		d.Close()
		s.err = err
		return
	}
	s.driver, s.ctx = d, c
}

// startLocked starts opening the labeler's GPU in the background, unless
// it is open or being opened, and returns the start under way (nil when
// the context is open); gpuMu is held.
func (l *Labeler) startLocked() *gpuStart {
	if l.ctx == nil && l.start == nil {
		l.start = &gpuStart{probed: make(chan struct{}), opened: make(chan struct{}), began: time.Now()}
		go l.start.run(l.opts.GPU, l.release)
	}
	return l.start
}

// Start begins opening the GPU in the background and returns at once. It
// loads the driver, probes the devices, creates the context and loads the
// kernels on a goroutine of its own, under [BackendGPU] and [BackendAuto],
// for the labeler and its peers (Options.GPUs), so that the start-up runs
// while the caller reads its inputs. The first labeling that uses the GPU
// waits for the rest of it, and counts only that wait as Timing.Setup. A
// failed start is reported as the labeling's error under [BackendGPU], and
// sends labeling to the CPU under [BackendAuto]. Other backends do nothing,
// and so do later calls. [Options].StartGPU calls it from [New].
func (l *Labeler) Start() {
	if l.opts.Backend != BackendGPU && l.opts.Backend != BackendAuto {
		return
	}
	l.gpuMu.Lock()
	if !l.gpuDead && (!l.probed || usable(l.status, l.opts.GPU) == nil) {
		l.startLocked()
	}
	l.gpuMu.Unlock()
	for _, p := range l.peers {
		p.Start()
	}
}

// Prepare opens the GPU's driver and context ahead of the first labeling. It
// does so under [BackendGPU], or under [BackendAuto] when a GPU is usable, so
// that a run can pay the start-up (a fraction of a second) while it reads its
// first inputs rather than when it labels the first one. It may run beside
// labeling calls (they wait for it), and waits for a [Labeler.Start] under
// way. Under [BackendGPU] it returns the driver's error; under [BackendAuto]
// a failure is handled as in labeling (a warning, the CPU from then on) and
// Prepare returns nil. Other backends do nothing.
func (l *Labeler) Prepare() error {
	if l.opts.Backend != BackendGPU && l.opts.Backend != BackendAuto {
		return nil
	}
	l.Start() // the peers open beside the lead
	_, err := l.runGPU(true, func(*cuda.Context, time.Duration) error { return nil })
	for _, p := range l.peers { // the other GPUs of Options.GPUs
		err = errors.Join(err, p.Prepare())
	}
	return err
}

// runGPU runs f on the GPU when the backend says so: always under
// BackendGPU (its error is returned), under BackendAuto when large is set,
// a GPU is usable and none failed before. Under BackendAuto a failure is
// reported to the warnings writer, the labeler stays on the CPU from then
// on, and ran is false with a nil error so that the caller labels on the
// CPU. f runs with the labeler's GPU lock held; setup is the time this
// call waited for the driver and the context (zero once open).
func (l *Labeler) runGPU(large bool, f func(c *cuda.Context, setup time.Duration) error) (ran bool, err error) {
	switch l.opts.Backend {
	case BackendGPU:
		l.gpuMu.Lock()
		defer l.gpuMu.Unlock()
		setup, err := l.openLocked()
		if err != nil {
			return false, err
		}
		return true, f(l.ctx, setup)
	case BackendAuto:
		if !large {
			return false, nil
		}
		l.gpuMu.Lock()
		defer l.gpuMu.Unlock()
		if l.gpuDead || l.gpuUsableLocked() != nil {
			return false, nil
		}
		setup, err := l.openLocked()
		if err == nil {
			if err = f(l.ctx, setup); err == nil {
				return true, nil
			}
		}
		l.gpuDead = true
		fmt.Fprintf(l.opts.Warnings, "cclabel: warning: GPU failed, labeling on the CPU from here on: %v\n", err)
	}
	return false, nil
}

// openLocked opens the labeler's GPU, unless it is open: it waits for the
// start under way, or starts one and waits for it, and takes its driver and
// context. It returns the time it waited; gpuMu is held. A failed start is
// forgotten, so that a later call tries again.
func (l *Labeler) openLocked() (time.Duration, error) {
	if l.ctx != nil {
		return 0, nil
	}
	s := l.startLocked()
	wait := time.Now()
	<-s.opened
	waited := time.Since(wait)
	l.start = nil
	if !l.probed {
		l.status, l.probed = s.status, true
	}
	if s.err != nil {
		return 0, s.err
	}
	l.driver, l.ctx = s.driver, s.ctx
	return waited, nil
}

// close waits for s to end, then closes what it opened.
func (s *gpuStart) close() error {
	<-s.opened
	return closeGPU(s.ctx, s.driver)
}

// closeGPU closes a context and its driver, either of which may be nil.
func closeGPU(c *cuda.Context, d *cuda.Driver) error {
	var err error
	if c != nil {
		err = c.Close()
	}
	if d != nil {
		err = errors.Join(err, d.Close())
	}
	return err
}

// gpuRelease is the closing of a labeler's GPU on a goroutine of its own
// ([Labeler.Release]).
type gpuRelease struct {
	done chan struct{} // closed once err is set
	err  error
}

// Release starts closing the GPU contexts and drivers in the background,
// and returns at once. A caller done with the GPU calls it so that the
// teardown overlaps its remaining work, such as writing outputs, rather than
// delaying its exit. The labeler stays usable: a later GPU call opens the GPU
// again once the release is done, and [Labeler.Close] waits for it and
// returns its error.
func (l *Labeler) Release() {
	for _, p := range l.peers {
		p.Release()
	}
	l.gpuMu.Lock()
	defer l.gpuMu.Unlock()
	start, ctx, driver, before := l.start, l.ctx, l.driver, l.release
	if start == nil && ctx == nil && driver == nil {
		return
	}
	l.start, l.ctx, l.driver = nil, nil, nil
	r := &gpuRelease{done: make(chan struct{})}
	l.release = r
	go func() {
		defer close(r.done)
		if before != nil {
			<-before.done
			r.err = before.err
		}
		if start != nil {
			r.err = errors.Join(r.err, start.close())
		}
		r.err = errors.Join(r.err, closeGPU(ctx, driver))
	}()
}

// closeLocked closes the labeler's GPU: it waits for a release or a start
// under way and closes the context and driver; gpuMu is held.
func (l *Labeler) closeLocked() error {
	var err error
	if r := l.release; r != nil {
		<-r.done
		err = r.err
		l.release = nil
	}
	if s := l.start; s != nil {
		err = errors.Join(err, s.close())
		l.start = nil
	}
	err = errors.Join(err, closeGPU(l.ctx, l.driver))
	l.ctx, l.driver = nil, nil
	return err
}

// starting reports whether the labeler's GPU is being opened in the
// background and is not open yet: a labeling would wait for it.
func (l *Labeler) starting() bool {
	l.gpuMu.Lock()
	defer l.gpuMu.Unlock()
	if l.ctx != nil || l.start == nil {
		return false
	}
	ended, _ := l.start.ended()
	return !ended
}

// readyLabels returns a label array of n entries for the GPU's download,
// uint16 when narrow is set (the labels the narrowed download gives; a
// count past uint16 then makes its own uint32 array), else uint32. Its
// pages are faulted in now on threads goroutines, in huge pages where the
// kernel gives them: a labeling that would otherwise wait for the GPU's
// start does this work meanwhile, and the download then copies into pages
// in place.
func readyLabels(n int, narrow bool, threads int) (dst []uint32, dst16 []uint16) {
	if narrow {
		dst16 = parallel.Alloc[uint16](n)
		parallel.Touch(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst16))), 2*n), threads)
		return nil, dst16
	}
	dst = parallel.Alloc[uint32](n)
	parallel.Touch(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), 4*n), threads)
	return dst, nil
}
