// Package slabs labels a volume one z-slab of planes at a time and joins
// the slabs' labels into those of the whole volume, bit for bit. [Label] is
// the driver: it takes the planes from a [Source] (a raster in memory, one
// still being read, or a plane reader) and leaves the labels in a [Sink]
// (memory or a [Spill] file); [Join] joins slabs labeled earlier.
package slabs
