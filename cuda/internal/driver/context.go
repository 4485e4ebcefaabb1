package driver

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Context is the primary context of one device with a module of kernels
// loaded.
//
// [Context.Do] locks the calling goroutine to its OS thread and makes the
// context current there; every other method is called inside Do.
type Context struct {
	d      *Driver
	device int32
	ctx    uintptr
	module uintptr
	fns    map[string]uintptr
	// threads is the device's multiprocessors x resident threads per
	// multiprocessor.
	threads int
	// stage holds the pinned buffers that copies go through, made on
	// first use; stageFailed records that the driver refused them.
	stage       *staging
	stageFailed bool
	// scratch holds the buffers of [Context.Scratch] between calls.
	scratch []Buffer
}

// NewContext retains the primary context of device ordinal and loads the
// module image.
//
// An image without code for the device fails here (CUDA error 209, no
// binary for GPU).
func (d *Driver) NewContext(ordinal int, image []byte) (*Context, error) {
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
	c.threads = int(sms) * int(threads)
	if err := d.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&c.ctx, c.device)); err != nil {
		return nil, err
	}
	// The staging buffers are pinned as part of the start-up, not the first
	// copy, on a thread of their own while this one loads the module.
	staged := make(chan struct{})
	go func() {
		defer close(staged)
		_ = c.Do(func() error { c.stagingBuffers(); return nil })
	}()
	err := c.Do(func() error {
		return d.check("cuModuleLoadData", d.cuModuleLoadData(&c.module, &image[0]))
	})
	<-staged
	runtime.KeepAlive(image)
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close frees the staging and scratch buffers, unloads the module and
// releases the context.
func (c *Context) Close() error {
	var err error
	if c.stage != nil && c.ctx != 0 {
		_ = c.Do(func() error { c.freeStaging(c.stage); return nil })
		c.stage = nil
	}
	if c.scratch != nil && c.ctx != 0 {
		_ = c.Do(func() error { c.Free(c.scratch...); return nil })
		c.scratch = nil
	}
	if c.module != 0 {
		err = c.Do(func() error { return c.d.check("cuModuleUnload", c.d.cuModuleUnload(c.module)) })
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

// Do runs f with the context current on a locked OS thread.
func (c *Context) Do(f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.d.check("cuCtxSetCurrent", c.d.cuCtxSetCurrent(c.ctx)); err != nil {
		return err
	}
	return f()
}

// Function returns a kernel of the loaded module.
func (c *Context) Function(name string) (uintptr, error) {
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

// Buffer is device memory.
type Buffer struct {
	Ptr   uintptr
	Bytes uint64
}

// Alloc allocates device memory (call inside [Context.Do]).
func (c *Context) Alloc(bytes uint64) (Buffer, error) {
	b := Buffer{Bytes: bytes}
	if bytes == 0 {
		bytes = 4
	}
	err := c.d.check("cuMemAlloc", c.d.cuMemAlloc(&b.Ptr, bytes))
	return b, err
}

// AllocAll allocates a buffer of each size, as [Context.Alloc] does, once
// it has checked that together they fit the device's free memory: a
// [*MemoryError] names what needs them when they do not. On an error it
// frees what it allocated. Call it inside [Context.Do].
func (c *Context) AllocAll(what string, sizes ...uint64) ([]Buffer, error) {
	var need uint64
	for _, s := range sizes {
		need += s
	}
	if free, err := c.FreeMemory(); err != nil {
		return nil, err
	} else if need > free {
		return nil, &MemoryError{What: what, Need: need, Free: free}
	}
	bufs := make([]Buffer, len(sizes))
	for i, s := range sizes {
		b, err := c.Alloc(s)
		if err != nil {
			c.Free(bufs...)
			return nil, err
		}
		bufs[i] = b
	}
	return bufs, nil
}

// MemoryError reports buffers that [Context.AllocAll] did not allocate
// because they do not fit the device's free memory.
type MemoryError struct {
	// What needs the memory ("the grid").
	What string
	// Need and Free are the bytes needed and free.
	Need, Free uint64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("cuda: %s needs %d MiB of device memory, %d MiB are free", e.What, e.Need>>20, e.Free>>20)
}

// Free releases the device memory of bufs; a zero [Buffer] has none (call
// inside [Context.Do]).
func (c *Context) Free(bufs ...Buffer) {
	for _, b := range bufs {
		if b.Ptr != 0 {
			c.d.cuMemFree(b.Ptr)
		}
	}
}

// Download copies device memory into a host slice of int32.
//
// Call it inside [Context.Do].
func (c *Context) Download(dst []int32, src Buffer) error {
	if len(dst) == 0 {
		return nil
	}
	err := c.d.check("cuMemcpyDtoH", c.d.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), src.Ptr, uint64(4*len(dst))))
	runtime.KeepAlive(dst)
	return err
}

// FreeMemory returns the device's free memory in bytes.
//
// Call it inside [Context.Do].
func (c *Context) FreeMemory() (uint64, error) {
	var free, total uint64
	err := c.d.check("cuMemGetInfo", c.d.cuMemGetInfo(&free, &total))
	return free, err
}

// Sync waits for the device (call inside [Context.Do]).
func (c *Context) Sync() error {
	return c.d.check("cuCtxSynchronize", c.d.cuCtxSynchronize())
}

// Device returns the context's device ordinal.
func (c *Context) Device() int { return int(c.device) }

// ResidentThreads returns how many threads the device holds at once.
//
// That is its multiprocessors times the resident threads of each.
func (c *Context) ResidentThreads() int { return c.threads }
