// Package driver binds the CUDA driver API at run time, without cgo.
//
// It loads libcuda.so.1 through purego and offers devices, a context with
// a module of kernels, device memory, copies through pinned staging
// buffers, launches and events.
package driver
