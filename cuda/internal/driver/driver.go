package driver

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libraryName is the CUDA driver library, installed with the NVIDIA driver.
const libraryName = "libcuda.so.1"

// result is a CUDA driver API status code (CUresult); 0 is success.
type result int32

// Driver is an opened CUDA driver library with the functions cclabel uses.
type Driver struct {
	lib uintptr

	cuInit               func(flags uint32) result
	cuDriverGetVersion   func(version *int32) result
	cuDeviceGetCount     func(count *int32) result
	cuDeviceGet          func(device *int32, ordinal int32) result
	cuDeviceGetName      func(name *byte, length int32, device int32) result
	cuDeviceTotalMem     func(bytes *uint64, device int32) result
	cuDeviceGetAttribute func(value *int32, attribute int32, device int32) result
	cuGetErrorString     func(code result, str **byte) result
	cuGetErrorName       func(code result, str **byte) result

	cuDevicePrimaryCtxRetain  func(ctx *uintptr, device int32) result
	cuDevicePrimaryCtxRelease func(device int32) result
	cuCtxSetCurrent           func(ctx uintptr) result
	cuCtxSynchronize          func() result
	cuModuleLoadData          func(module *uintptr, image *byte) result
	cuModuleUnload            func(module uintptr) result
	cuModuleGetFunction       func(fn *uintptr, module uintptr, name string) result
	cuMemAlloc                func(dptr *uintptr, bytes uint64) result
	cuMemFree                 func(dptr uintptr) result
	cuMemcpyHtoD              func(dst uintptr, src unsafe.Pointer, bytes uint64) result
	cuMemcpyDtoH              func(dst unsafe.Pointer, src uintptr, bytes uint64) result
	cuMemGetInfo              func(free, total *uint64) result
	cuMemHostAlloc            func(p *unsafe.Pointer, bytes uint64, flags uint32) result
	cuMemFreeHost             func(p unsafe.Pointer) result
	cuMemcpyDtoHAsync         func(dst unsafe.Pointer, src uintptr, bytes uint64, stream uintptr) result
	cuMemcpyHtoDAsync         func(dst uintptr, src unsafe.Pointer, bytes uint64, stream uintptr) result
	cuLaunchKernel            func(fn uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) result
	cuEventCreate             func(Event *uintptr, flags uint32) result
	cuEventRecord             func(Event uintptr, stream uintptr) result
	cuEventSynchronize        func(Event uintptr) result
	cuEventElapsedTime        func(ms *float32, start, end uintptr) result
	cuEventDestroy            func(Event uintptr) result
	cuPointerGetAttribute     func(data unsafe.Pointer, attribute int32, ptr uintptr) result
	cuStreamSynchronize       func(stream uintptr) result
	cuMemcpyDtoD              func(dst, src uintptr, bytes uint64) result
	cuMemcpy2D                func(p *memcpy2D) result
}

// Open loads the CUDA driver library and initialises the driver.
//
// It fails with a reason a user can act on when the library is missing, a
// symbol is missing (a driver too old) or initialisation fails (no device,
// driver and kernel module mismatch, ...).
func Open() (*Driver, error) {
	// dlopen's reason comes from dlerror, which is per OS thread: with
	// cgo the goroutine could move between the two calls and read an
	// empty message.
	runtime.LockOSThread()
	lib, err := purego.Dlopen(libraryName, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	runtime.UnlockOSThread()
	if err != nil {
		return nil, fmt.Errorf("cuda: cannot load %s (no NVIDIA driver installed?): %w", libraryName, err)
	}
	d := &Driver{lib: lib}
	for _, f := range []struct {
		name string
		fn   any
	}{
		{"cuInit", &d.cuInit},
		{"cuDriverGetVersion", &d.cuDriverGetVersion},
		{"cuDeviceGetCount", &d.cuDeviceGetCount},
		{"cuDeviceGet", &d.cuDeviceGet},
		{"cuDeviceGetName", &d.cuDeviceGetName},
		{"cuDeviceTotalMem_v2", &d.cuDeviceTotalMem},
		{"cuDeviceGetAttribute", &d.cuDeviceGetAttribute},
		{"cuGetErrorString", &d.cuGetErrorString},
		{"cuGetErrorName", &d.cuGetErrorName},
		{"cuDevicePrimaryCtxRetain", &d.cuDevicePrimaryCtxRetain},
		{"cuDevicePrimaryCtxRelease_v2", &d.cuDevicePrimaryCtxRelease},
		{"cuCtxSetCurrent", &d.cuCtxSetCurrent},
		{"cuCtxSynchronize", &d.cuCtxSynchronize},
		{"cuModuleLoadData", &d.cuModuleLoadData},
		{"cuModuleUnload", &d.cuModuleUnload},
		{"cuModuleGetFunction", &d.cuModuleGetFunction},
		{"cuMemAlloc_v2", &d.cuMemAlloc},
		{"cuMemFree_v2", &d.cuMemFree},
		{"cuMemcpyHtoD_v2", &d.cuMemcpyHtoD},
		{"cuMemcpyDtoH_v2", &d.cuMemcpyDtoH},
		{"cuMemGetInfo_v2", &d.cuMemGetInfo},
		{"cuMemHostAlloc", &d.cuMemHostAlloc},
		{"cuMemFreeHost", &d.cuMemFreeHost},
		{"cuMemcpyDtoHAsync_v2", &d.cuMemcpyDtoHAsync},
		{"cuMemcpyHtoDAsync_v2", &d.cuMemcpyHtoDAsync},
		{"cuLaunchKernel", &d.cuLaunchKernel},
		{"cuEventCreate", &d.cuEventCreate},
		{"cuEventRecord", &d.cuEventRecord},
		{"cuEventSynchronize", &d.cuEventSynchronize},
		{"cuEventElapsedTime_v2", &d.cuEventElapsedTime},
		{"cuEventDestroy_v2", &d.cuEventDestroy},
		{"cuPointerGetAttribute", &d.cuPointerGetAttribute},
		{"cuStreamSynchronize", &d.cuStreamSynchronize},
		{"cuMemcpyDtoD_v2", &d.cuMemcpyDtoD},
		{"cuMemcpy2D_v2", &d.cuMemcpy2D},
	} {
		sym, err := purego.Dlsym(lib, f.name)
		if err != nil {
			purego.Dlclose(lib)
			return nil, fmt.Errorf("cuda: %s has no %s (driver too old?): %w", libraryName, f.name, err)
		}
		purego.RegisterFunc(f.fn, sym)
	}
	if err := d.check("cuInit", d.cuInit(0)); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Close unloads the driver library.
func (d *Driver) Close() error {
	if d.lib == 0 {
		return nil
	}
	err := purego.Dlclose(d.lib)
	d.lib = 0
	if err != nil {
		return fmt.Errorf("cuda: %w", err)
	}
	return nil
}

// check turns a driver status into an error naming the call and the
// driver's own description of the status.
func (d *Driver) check(call string, r result) error {
	if r == 0 {
		return nil
	}
	name, desc := "CUDA_ERROR", "unknown error"
	var p *byte
	if d.cuGetErrorName != nil && d.cuGetErrorName(r, &p) == 0 && p != nil {
		name = goString(p)
	}
	if d.cuGetErrorString != nil && d.cuGetErrorString(r, &p) == 0 && p != nil {
		desc = goString(p)
	}
	return fmt.Errorf("cuda: %s: %s (%d): %s", call, name, int32(r), desc)
}

// goString copies a NUL-terminated C string owned by the driver.
func goString(p *byte) string {
	var b []byte
	for ptr := unsafe.Pointer(p); *(*byte)(ptr) != 0; ptr = unsafe.Add(ptr, 1) {
		b = append(b, *(*byte)(ptr))
		if len(b) > 4096 {
			break
		}
	}
	return string(b)
}

// errNoDevice is returned by [Driver.Devices] when the driver sees no GPU.
var errNoDevice = errors.New("cuda: the driver sees no CUDA device")
