package cuda

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// Context is the primary context of one device with cclabel's kernels
// loaded. Its methods lock the calling goroutine to its OS thread and make
// the context current there, so they may be called from any goroutine,
// but not concurrently.
type Context struct {
	d      *Driver
	device int32
	ctx    uintptr
	module uintptr
	fns    map[string]uintptr
	// blocks fills the device: multiprocessors x resident threads per
	// multiprocessor / threads per block, as the ECL-CC reference launches.
	blocks uint32
	// PerKernel makes each run record every kernel's time in
	// Timing.Kernels (profiling); otherwise only the whole kernel time.
	PerKernel bool
	// force sends every grid to one family of grid kernels (tests and
	// benchmarks; value blocks only at 26-connectivity); autoKernels
	// lets LabelGrid choose.
	force gridKernels
	// stage holds the pinned buffers that copies go through, made on
	// first use; stageFailed records that the driver refused them.
	stage       *staging
	stageFailed bool
}

// NewContext retains the primary context of device ordinal and loads the
// embedded kernels. A fatbin without code for the device fails here (CUDA
// error 209, no binary for GPU) and callers fall back to the CPU.
func (d *Driver) NewContext(ordinal int) (*Context, error) {
	c := &Context{d: d, fns: map[string]uintptr{}}
	if err := d.check("cuDeviceGet", d.cuDeviceGet(&c.device, int32(ordinal))); err != nil {
		return nil, err
	}
	var sms, threads int32
	if err := d.check("cuDeviceGetAttribute", d.cuDeviceGetAttribute(&sms, attrMultiprocessors, c.device)); err != nil {
		return nil, err
	}
	if err := d.check("cuDeviceGetAttribute", d.cuDeviceGetAttribute(&threads, attrThreadsPerMultiprocessor, c.device)); err != nil {
		return nil, err
	}
	c.blocks = uint32(max(1, int(sms)*int(threads)/threadsPerBlock))
	if err := d.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&c.ctx, c.device)); err != nil {
		return nil, err
	}
	image, err := kernelImage()
	if err != nil {
		c.Close()
		return nil, err
	}
	err = c.do(func() error {
		if err := d.check("cuModuleLoadData", d.cuModuleLoadData(&c.module, &image[0])); err != nil {
			return err
		}
		c.stagingBuffers() // pinned now, as part of the start-up, not the first copy
		return nil
	})
	runtime.KeepAlive(image)
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close frees the staging buffers, unloads the kernels and releases the
// context.
func (c *Context) Close() error {
	var err error
	if c.stage != nil && c.ctx != 0 {
		_ = c.do(func() error { c.freeStaging(c.stage); return nil })
		c.stage = nil
	}
	if c.module != 0 {
		err = c.do(func() error { return c.d.check("cuModuleUnload", c.d.cuModuleUnload(c.module)) })
		c.module = 0
	}
	if c.ctx != 0 {
		if e := c.d.check("cuDevicePrimaryCtxRelease", c.d.cuDevicePrimaryCtxRelease(c.device)); err == nil {
			err = e
		}
		c.ctx = 0
	}
	return err
}

// do runs f with the context current on a locked OS thread.
func (c *Context) do(f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.d.check("cuCtxSetCurrent", c.d.cuCtxSetCurrent(c.ctx)); err != nil {
		return err
	}
	return f()
}

// function returns a kernel of the loaded module.
func (c *Context) function(name string) (uintptr, error) {
	if fn, ok := c.fns[name]; ok {
		return fn, nil
	}
	var fn uintptr
	if err := c.d.check("cuModuleGetFunction("+name+")", c.d.cuModuleGetFunction(&fn, c.module, name)); err != nil {
		return 0, err
	}
	c.fns[name] = fn
	return fn, nil
}

// deviceBuffer is device memory.
type deviceBuffer struct {
	ptr   uintptr
	bytes uint64
}

// alloc allocates device memory (call inside do).
func (c *Context) alloc(bytes uint64) (deviceBuffer, error) {
	b := deviceBuffer{bytes: bytes}
	if bytes == 0 {
		bytes = 4
	}
	err := c.d.check("cuMemAlloc", c.d.cuMemAlloc(&b.ptr, bytes))
	return b, err
}

// free releases device memory (call inside do).
func (c *Context) free(b deviceBuffer) {
	if b.ptr != 0 {
		c.d.cuMemFree(b.ptr)
	}
}

// upload copies a host slice of int32 to the device (call inside do).
func (c *Context) upload(dst deviceBuffer, src []int32) error {
	if len(src) == 0 {
		return nil
	}
	err := c.d.check("cuMemcpyHtoD", c.d.cuMemcpyHtoD(dst.ptr, unsafe.Pointer(&src[0]), uint64(4*len(src))))
	runtime.KeepAlive(src)
	return err
}

// uploadBytes copies bytes bytes at src to the device (call inside do);
// the caller keeps src alive.
func (c *Context) uploadBytes(dst deviceBuffer, src unsafe.Pointer, bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	return c.d.check("cuMemcpyHtoD", c.d.cuMemcpyHtoD(dst.ptr, src, bytes))
}

// download copies device memory into a host slice of int32 (call inside do).
func (c *Context) download(dst []int32, src deviceBuffer) error {
	if len(dst) == 0 {
		return nil
	}
	err := c.d.check("cuMemcpyDtoH", c.d.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), src.ptr, uint64(4*len(dst))))
	runtime.KeepAlive(dst)
	return err
}

// freeMemory returns the device's free memory in bytes (call inside do).
func (c *Context) freeMemory() (uint64, error) {
	var free, total uint64
	err := c.d.check("cuMemGetInfo", c.d.cuMemGetInfo(&free, &total))
	return free, err
}

// launch runs kernel name on a grid of blocks x threads (1D) with the
// given arguments, each a pointer to its value (call inside do). The
// argument values are pinned for the call.
func (c *Context) launch(name string, blocks, threads uint32, args ...unsafe.Pointer) error {
	fn, err := c.function(name)
	if err != nil {
		return err
	}
	var pinner runtime.Pinner
	defer pinner.Unpin()
	params := make([]unsafe.Pointer, len(args))
	for i, a := range args {
		pinner.Pin(a)
		params[i] = a
	}
	pinner.Pin(&params[0])
	return c.d.check("cuLaunchKernel("+name+")",
		c.d.cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, 0, 0, &params[0], nil))
}

// sync waits for the device (call inside do).
func (c *Context) sync() error {
	return c.d.check("cuCtxSynchronize", c.d.cuCtxSynchronize())
}

// String describes the context.
func (c *Context) String() string { return fmt.Sprintf("cuda device %d", c.device) }

// event is a CUDA event, for timing kernels on the device.
type event uintptr

// newEvent creates an event (call inside do).
func (c *Context) newEvent() (event, error) {
	var e uintptr
	err := c.d.check("cuEventCreate", c.d.cuEventCreate(&e, 0))
	return event(e), err
}

// record records e on the default stream (call inside do).
func (c *Context) record(e event) error {
	return c.d.check("cuEventRecord", c.d.cuEventRecord(uintptr(e), 0))
}

// elapsed waits for end and returns the time between start and end.
func (c *Context) elapsed(start, end event) (time.Duration, error) {
	if err := c.d.check("cuEventSynchronize", c.d.cuEventSynchronize(uintptr(end))); err != nil {
		return 0, err
	}
	var ms float32
	if err := c.d.check("cuEventElapsedTime", c.d.cuEventElapsedTime(&ms, uintptr(start), uintptr(end))); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// destroy releases an event.
func (c *Context) destroy(e event) { c.d.cuEventDestroy(uintptr(e)) }

// downloadPinned copies device memory into host memory that it page-locks
// for the copy: copies from pageable memory go through a staging buffer
// and run several times slower (call inside do). When the memory cannot be
// locked, it copies from pageable memory.
func (c *Context) downloadPinned(dst unsafe.Pointer, src uintptr, bytes uint64) error {
	if c.d.cuMemHostRegister(dst, bytes, 0) == 0 {
		defer c.d.cuMemHostUnregister(dst)
	}
	return c.d.check("cuMemcpyDtoH", c.d.cuMemcpyDtoH(dst, src, bytes))
}

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
	events := make([]event, marks)
	for i := range events {
		e, err := c.newEvent()
		if err != nil {
			return err
		}
		defer c.destroy(e)
		events[i] = e
	}
	// The functions are looked up first: a kernel's first look-up in a
	// process loads it (lazy loading), which is setup, not kernel time.
	for _, s := range steps {
		if _, err := c.function(s.name); err != nil {
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
	if err := c.launch("gpu_delay", 1, 1, unsafe.Pointer(&delay)); err != nil {
		return err
	}
	if err := c.record(events[0]); err != nil {
		return err
	}
	for i, s := range steps {
		if err := c.launch(s.name, s.blocks, s.threads, s.args...); err != nil {
			return err
		}
		if c.PerKernel || i == len(steps)-1 {
			if err := c.record(events[min(i+1, marks-1)]); err != nil {
				return err
			}
		}
	}
	var err error
	if t.Kernel, err = c.elapsed(events[0], events[marks-1]); err != nil {
		return err
	}
	if !c.PerKernel {
		return nil
	}
	for i, s := range steps {
		d, err := c.elapsed(events[i], events[i+1])
		if err != nil {
			return err
		}
		t.Kernels = append(t.Kernels, KernelTime{s.name, d})
	}
	return nil
}
