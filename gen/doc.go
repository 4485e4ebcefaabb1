// Package gen makes synthetic graphs and rasters for tests and benchmarks.
//
// Its graphs are shaped like the ECL-CC paper's 2d-2e20.sym ([GridGraph]),
// r4-2e23.sym ([RandomGraph]) and rmat22.sym ([RMATGraph]); its rasters
// are random binary pixels ([RandomRaster]), smooth binary blobs
// ([BlobsRaster]) and dense segmentations of many labeled cells
// ([CellsRaster]), or any of these by name ([Synthetic]). The same seed
// gives the same output on every machine and thread count.
package gen
