package driver

import (
	"runtime"
	"time"
	"unsafe"
)

// Launch runs kernel name on a 1D grid of blocks x threads.
//
// Each argument is a pointer to its value; the values are pinned for the
// call. Call it inside [Context.Do].
func (c *Context) Launch(name string, blocks, threads uint32, args ...unsafe.Pointer) error {
	fn, err := c.Function(name)
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

// Event is a CUDA Event, for timing kernels on the device.
type Event uintptr

// NewEvent creates an [Event] (call inside [Context.Do]).
func (c *Context) NewEvent() (Event, error) {
	var e uintptr
	err := c.d.check("cuEventCreate", c.d.cuEventCreate(&e, 0))
	return Event(e), err
}

// Record records e on the default stream (call inside [Context.Do]).
func (c *Context) Record(e Event) error {
	return c.d.check("cuEventRecord", c.d.cuEventRecord(uintptr(e), 0))
}

// Elapsed waits for end and returns the time between start and end.
func (c *Context) Elapsed(start, end Event) (time.Duration, error) {
	if err := c.d.check("cuEventSynchronize", c.d.cuEventSynchronize(uintptr(end))); err != nil {
		return 0, err
	}
	var ms float32
	if err := c.d.check("cuEventElapsedTime", c.d.cuEventElapsedTime(&ms, uintptr(start), uintptr(end))); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// Destroy releases an [Event].
func (c *Context) Destroy(e Event) { c.d.cuEventDestroy(uintptr(e)) }

// Step is one kernel launch of a sequence: kernel Name on a 1D grid of
// Blocks x Threads, with Args as [Context.Launch] takes them.
type Step struct {
	Name            string
	Blocks, Threads uint32
	Args            []unsafe.Pointer
}

// LaunchTimed launches steps in order on the default stream and returns
// their whole device time, and with each the time of every step as well.
//
// It looks the kernels up first: a kernel's first look-up in a process
// loads it (lazy loading), which is setup, not kernel time. It then
// launches kernel hold (one thread; its argument the delay in nanoseconds),
// which keeps the device busy for delay (none when delay is 0), untimed:
// the steps are queued behind it and run back to back, so that the events
// time the device's work, not the host's launch rate. The events between steps add
// a little device time, so without each only the sequence's two ends are
// recorded. Call it inside [Context.Do].
func (c *Context) LaunchTimed(hold string, delay time.Duration, steps []Step, each bool) (time.Duration, []time.Duration, error) {
	marks := 2
	if each {
		marks = len(steps) + 1
	}
	events := make([]Event, marks)
	for i := range events {
		e, err := c.NewEvent()
		if err != nil {
			return 0, nil, err
		}
		defer c.Destroy(e)
		events[i] = e
	}
	for _, s := range steps {
		if _, err := c.Function(s.Name); err != nil {
			return 0, nil, err
		}
	}
	if ns := uint64(delay.Nanoseconds()); ns > 0 {
		if err := c.Launch(hold, 1, 1, unsafe.Pointer(&ns)); err != nil {
			return 0, nil, err
		}
	}
	if err := c.Record(events[0]); err != nil {
		return 0, nil, err
	}
	for i, s := range steps {
		if err := c.Launch(s.Name, s.Blocks, s.Threads, s.Args...); err != nil {
			return 0, nil, err
		}
		if each || i == len(steps)-1 {
			if err := c.Record(events[min(i+1, marks-1)]); err != nil {
				return 0, nil, err
			}
		}
	}
	total, err := c.Elapsed(events[0], events[marks-1])
	if err != nil || !each {
		return total, nil, err
	}
	times := make([]time.Duration, len(steps))
	for i := range steps {
		if times[i], err = c.Elapsed(events[i], events[i+1]); err != nil {
			return 0, nil, err
		}
	}
	return total, times, nil
}
