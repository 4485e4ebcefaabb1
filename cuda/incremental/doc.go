// Package incremental keeps connected components up to date on the GPU.
//
// Its [Incremental] implements [incremental.Connectivity] with a parent
// array resident on a device of package [cuda], with batches of edges
// hooked by its kernels.
package incremental
