// Package cuda labels graphs, images and volumes on NVIDIA GPUs. It loads
// the CUDA driver (libcuda.so.1) at run time through purego, so building
// needs neither cgo nor a CUDA toolkit, and a machine without a GPU simply
// reports why the GPU path cannot run ([Available]).
package cuda
