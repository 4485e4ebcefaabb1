// Package band is the machinery that the grid labelers of ecl/grid and
// ecl/grid/runs share to label a grid in parallel bands of rows.
//
// A labeler splits the rows (y + z*Height) into contiguous bands (Band,
// Layers), labels each on its own goroutine (Run) with parents stored as
// index+1 in the label array (Find, FindRoot, Union, Hook, LinkContacts),
// joins the bands at their borders, numbers the surviving roots band by
// band (Number) and relabels the bands concurrently, handing the labels
// of roots that later bands join across through CrossLabels. Labelers
// that link vertices (runs) in a first pass and label pixels in a second
// implement Labeler and run through RunLabeler, with their vertices'
// parents kept in slots at the end of each band's pixels (MoveSlots,
// LabelSlots).
//
// The package also holds what those labelers share around the bands: the
// validation of a grid labeling (Validate), the layers that bands hold
// whole and the reach of the stencil between rows (Layering, LayerSlack,
// PlaneSlack), the row fills of the second passes (Fill32, Clear32,
// FillSpan, and WriteRuns and WriteBounds, with an AVX2 kernel on amd64) and
// pooled scratch buffers (GetWords, PutWords).
package band
