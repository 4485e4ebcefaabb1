// Package gen makes synthetic inputs for tests and benchmarks,
// deterministically from a seed: graphs shaped like the ECL-CC paper's
// 2d-2e20.sym (grid), r4-2e23.sym (random) and rmat22.sym (R-MAT), and
// rasters: random binary pixels (RandomRaster), smooth binary blobs
// (BlobsRaster) and dense segmentations of many labeled cells
// (CellsRaster), or any of these by name (Synthetic). The same seed gives
// the same output on every machine and thread count.
package gen
