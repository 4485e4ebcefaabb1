// Package measure measures every component of a labeling in one parallel
// pass over its labels: size, bounding box and centroid, and on request
// intensity statistics from an image of the same shape, the physical
// surface (perimeter in 2D) and the contacts between components.
//
// [Compute] returns a [Table]; [SizeOrder] and [Relabel] number components
// by decreasing size, and [Table.Renumber] carries that numbering over to a
// table. docs/measure.md defines every measurement exactly.
//
// Labels are 0 for background and 1..count for the components; a raster of
// depth 1 is 2D (perimeter, disc, 4-neighbour contacts), deeper ones are
// 3D (surface, sphere, 6-neighbour contacts).
package measure
