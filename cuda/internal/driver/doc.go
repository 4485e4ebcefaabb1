// Package driver binds the CUDA driver API at run time (libcuda.so.1
// through purego, no cgo): devices, a context with a module of kernels,
// device memory, copies through pinned staging buffers, launches and events.
package driver
