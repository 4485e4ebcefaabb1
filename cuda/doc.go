// Package cuda is cclabel's GPU backend. It loads the CUDA driver
// (libcuda.so.1) at run time through purego, so building needs neither cgo
// nor a CUDA toolkit, and a machine without a GPU simply reports why the
// GPU path cannot run.
//
// This first part binds the driver's initialisation and device queries
// (Available, Open, Driver.Devices); the labeling kernels follow.
package cuda
