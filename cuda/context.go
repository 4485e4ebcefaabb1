package cuda

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
)

// Driver is an opened CUDA driver library; [Driver.NewContext] opens a device.
type Driver struct{ d *driver.Driver }

// Status says whether the GPU path can run, as [Available] reports it.
func (d *Driver) Status() Status { return d.d.Status() }

// PointerDevice returns the ordinal of the GPU owning device address p.
func (d *Driver) PointerDevice(p uintptr) (int, error) { return d.d.PointerDevice(p) }

// Close unloads the driver library.
func (d *Driver) Close() error { return d.d.Close() }

// HandOff, called as a program exits, hands the driver's files to a holder
// that closes them after it; Hold, first in main, runs one ([driver.HandOff]).
var HandOff, Hold = driver.HandOff, driver.Hold

// Device describes one GPU.
type Device = driver.Device

// Status says whether the GPU path can run on this machine, and why not.
type Status = driver.Status

// Open loads the CUDA driver library and initialises the driver. It fails
// with a reason a user can act on when the library or a symbol is missing
// (a driver too old) or initialisation fails (no device, a mismatch).
func Open() (*Driver, error) {
	d, err := driver.Open()
	if err != nil {
		return nil, err
	}
	return &Driver{d}, nil
}

// Available probes the CUDA driver and reports whether the GPU path can run.
//
// It loads libcuda.so.1, initialises it and lists the devices, then
// unloads it. It never fails; when the GPU path cannot run,
// [Status].Reason says why.
func Available() Status { return driver.Available() }

// Context is the primary context of one device with cclabel's kernels
// loaded.
//
// Its methods lock the calling goroutine to its OS thread and make the
// context current there, so they may be called from any goroutine, but
// not concurrently.
type Context struct {
	dc *driver.Context
	// blocks fills the device: multiprocessors x resident threads per
	// multiprocessor / threads per block, as the ECL-CC reference launches.
	blocks uint32
	// PerKernel makes each run record every kernel's time in
	// [Timing].Kernels (profiling); otherwise only the whole kernel time.
	PerKernel bool
	// force sends every grid to one family of grid kernels (tests and
	// benchmarks; value blocks only at 26-connectivity); autoKernels
	// lets LabelGrid choose.
	force gridKernels
	// untimed launches at once, without the delay kernel (LabelDevice).
	untimed bool
	// measure runs on a grid's device labels (LabelGridMeasure); done: no download.
	measure func(labels, total driver.Buffer) (done bool, err error)
}

// NewContext retains the primary context of device ordinal and loads the
// embedded kernels.
//
// A fatbin without code for the device fails here (CUDA error 209, no
// binary for GPU) and callers fall back to the CPU.
func (d *Driver) NewContext(ordinal int) (*Context, error) {
	image, err := kernelImage()
	if err != nil {
		return nil, err
	}
	dc, err := d.d.NewContext(ordinal, image)
	if err != nil {
		return nil, err
	}
	return &Context{dc: dc, blocks: uint32(max(1, dc.ResidentThreads()/threadsPerBlock))}, nil
}

// Driver returns the driver context, for the backends of cuda's
// subpackages.
func (c *Context) Driver() *driver.Context { return c.dc }

// Close frees the staging buffers, unloads the kernels and releases the
// context.
func (c *Context) Close() error { return c.dc.Close() }

// String describes the context.
func (c *Context) String() string { return fmt.Sprintf("cuda device %d", c.dc.Device()) }

// kernelStep is a [driver.Step] of the kernel plans, a type of this
// package so that they write it as unkeyed literals.
type kernelStep driver.Step

// launchDelay is how long runTimed holds the device before the kernels:
// long enough for the host to queue a dozen launches and events (a
// quarter of it for one or two launches).
const launchDelay = 200 * time.Microsecond

// runTimed launches steps in order on the default stream, held back by
// the delay kernel until they are queued ([driver.Context.LaunchTimed]),
// and adds their whole time to t.Kernel, and with c.PerKernel each
// kernel's time to t.Kernels (call inside do).
func (c *Context) runTimed(steps []kernelStep, t *Timing) error {
	delay := launchDelay
	switch {
	case c.untimed:
		delay = 0
	case len(steps) <= 2:
		delay /= 4
	}
	launches := unsafe.Slice((*driver.Step)(unsafe.SliceData(steps)), len(steps))
	total, each, err := c.dc.LaunchTimed("gpu_delay", delay, launches, c.PerKernel)
	if err != nil {
		return err
	}
	t.Kernel += total
	for i, d := range each {
		t.Kernels = append(t.Kernels, KernelTime{steps[i].Name, d})
	}
	return nil
}

// runRead clears the 8 bytes at words, runs steps, which leave their
// answer there, and reads it back. It adds the kernels' time and the
// read's to t.Kernel as [Context.runTimed] does (call inside do).
func (c *Context) runRead(steps []kernelStep, words uintptr, t *Timing) (uint64, error) {
	two := int64(2)
	steps = append([]kernelStep{{"zero_u32", 1, 32, []unsafe.Pointer{unsafe.Pointer(&words), unsafe.Pointer(&two)}}}, steps...)
	if err := c.runTimed(steps, t); err != nil {
		return 0, err
	}
	start := time.Now()
	var w [1]uint64
	err := driver.DownloadSlice(c.dc, w[:], words)
	t.Kernel += time.Since(start)
	return w[0], err
}
