package labelfile

// SetSlabVoxels sets the fewest voxels of the stream's slabs, and lets it
// stream on any thread count.
func (vs *VolumeStream) SetSlabVoxels(n int) { vs.slabVoxels, vs.minThreads = n, 1 }
