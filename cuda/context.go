package cuda

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda/internal/driver"
)

// Driver is an opened CUDA driver library.
type Driver struct{ d *driver.Driver }

// Device describes one GPU.
type Device = driver.Device

// Status says whether the GPU path can run on this machine, and why not.
type Status = driver.Status

// Open loads the CUDA driver library and initialises the driver.
//
// It fails with a reason a user can act on when the library is missing, a
// symbol is missing (a driver too old) or initialisation fails (no device,
// driver and kernel module mismatch, ...).
func Open() (*Driver, error) {
	d, err := driver.Open()
	if err != nil {
		return nil, err
	}
	return &Driver{d}, nil
}

// Close unloads the driver library.
func (d *Driver) Close() error { return d.d.Close() }

// DriverVersion returns the CUDA version the driver supports.
func (d *Driver) DriverVersion() (major, minor int, err error) { return d.d.DriverVersion() }

// Devices lists the GPUs the driver sees.
func (d *Driver) Devices() ([]Device, error) { return d.d.Devices() }

// Status reports what [Available] reports, from the opened driver: whether
// the GPU path can run, and the devices the driver sees.
func (d *Driver) Status() Status { return d.d.Status() }

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

// kernelStep is one kernel launch of a timed sequence.
type kernelStep struct {
	name            string
	blocks, threads uint32
	args            []unsafe.Pointer
}

// launchDelay is how long runTimed holds the device before the kernels:
// long enough for the host to queue a dozen launches and events (a
// quarter of it for one or two launches).
const launchDelay = 200 * time.Microsecond

// runTimed launches steps in order on the default stream and records
// their whole time in t, and with c.PerKernel each kernel's time as well
// (call inside do). Per-kernel events add a little device time between
// kernels, so the whole time is measured without them.
func (c *Context) runTimed(steps []kernelStep, t *Timing) error {
	marks := 2
	if c.PerKernel {
		marks = len(steps) + 1
	}
	events := make([]driver.Event, marks)
	for i := range events {
		e, err := c.dc.NewEvent()
		if err != nil {
			return err
		}
		defer c.dc.Destroy(e)
		events[i] = e
	}
	// The functions are looked up first: a kernel's first look-up in a
	// process loads it (lazy loading), which is setup, not kernel time.
	for _, s := range steps {
		if _, err := c.dc.Function(s.name); err != nil {
			return err
		}
	}
	// The delay kernel holds the device while the launches below are
	// queued, so the kernels run back to back and the events time the
	// device's work, not the host's launch rate.
	delay := uint64(launchDelay.Nanoseconds())
	if len(steps) <= 2 {
		delay /= 4
	}
	if err := c.dc.Launch("gpu_delay", 1, 1, unsafe.Pointer(&delay)); err != nil {
		return err
	}
	if err := c.dc.Record(events[0]); err != nil {
		return err
	}
	for i, s := range steps {
		if err := c.dc.Launch(s.name, s.blocks, s.threads, s.args...); err != nil {
			return err
		}
		if c.PerKernel || i == len(steps)-1 {
			if err := c.dc.Record(events[min(i+1, marks-1)]); err != nil {
				return err
			}
		}
	}
	var err error
	if t.Kernel, err = c.dc.Elapsed(events[0], events[marks-1]); err != nil {
		return err
	}
	if !c.PerKernel {
		return nil
	}
	for i, s := range steps {
		d, err := c.dc.Elapsed(events[i], events[i+1])
		if err != nil {
			return err
		}
		t.Kernels = append(t.Kernels, KernelTime{s.name, d})
	}
	return nil
}
