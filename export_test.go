package cclabel

// SetSlabVoxels lowers the most voxels LabelRaster gives one kernel, so
// that tests reach the slab path on small rasters.
func SetSlabVoxels(l *Labeler, n int) { l.slabVoxels = n }
