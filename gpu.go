package cclabel

import (
	"errors"
	"fmt"
	"time"

	"github.com/cclabel/cclabel/cuda"
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

// gpuUsableLocked is gpuUsable with gpuMu held; the driver is probed once.
func (l *Labeler) gpuUsableLocked() error {
	if !l.probed {
		l.status, l.probed = cuda.Available(), true
	}
	switch {
	case !l.status.Available:
		return fmt.Errorf("gpu backend: %s", l.status.Reason)
	case l.opts.GPU >= len(l.status.Devices):
		return fmt.Errorf("gpu backend: no GPU %d (the driver sees %d)", l.opts.GPU, len(l.status.Devices))
	}
	return nil
}

// gpuOpen reports whether the GPU context is open.
func (l *Labeler) gpuOpen() bool {
	l.gpuMu.Lock()
	defer l.gpuMu.Unlock()
	return l.ctx != nil
}

// Prepare opens the GPU's driver and context ahead of the first labeling. It
// does so under [BackendGPU], or under [BackendAuto] when a GPU is usable, so
// that a run can pay the start-up (a fraction of a second) while it reads its
// first inputs rather than when it labels the first one. It may run beside
// labeling calls (they wait for it). Under [BackendGPU] it returns the
// driver's error; under [BackendAuto] a failure is handled as in labeling (a
// warning, the CPU from then on) and Prepare returns nil. Other backends do
// nothing.
func (l *Labeler) Prepare() error {
	if l.opts.Backend != BackendGPU && l.opts.Backend != BackendAuto {
		return nil
	}
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
// call spent loading the driver and creating the context (zero once open).
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

// openLocked loads the driver and creates the context of the labeler's
// GPU, unless they are open, and returns the time that took; gpuMu is
// held.
func (l *Labeler) openLocked() (time.Duration, error) {
	if l.ctx != nil {
		return 0, nil
	}
	start := time.Now()
	d, err := cuda.Open()
	if err != nil {
		return 0, err
	}
	c, err := d.NewContext(l.opts.GPU)
	if err != nil {
		d.Close()
		return 0, err
	}
	l.driver, l.ctx = d, c
	return time.Since(start), nil
}
