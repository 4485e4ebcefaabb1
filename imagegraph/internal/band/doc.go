// Package band splits a grid's rows into bands that the gridcc labelers
// label in parallel.
//
// A labeler labels each [Band] on its own goroutine ([RunLabeler], [Run])
// with parents stored as index+1 in the label array ([Find], [Union]),
// joins the bands at their borders and numbers the roots band by band
// ([Number], [CrossLabels]); the package also holds what those labelers
// share around the bands: validation, layers, row fills ([WriteRuns], with
// an AVX2 kernel on amd64) and pooled scratch buffers.
package band
