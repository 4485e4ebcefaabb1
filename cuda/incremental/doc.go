// Package incremental is the GPU backend of incremental connectivity
// ([incremental.Connectivity]): a parent array resident on a device of package
// cuda, with batches of edges hooked by its kernels.
package incremental
