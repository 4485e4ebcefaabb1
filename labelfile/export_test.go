package labelfile

// SetSlabVoxels sets the fewest voxels of the stream's slabs.
func (vs *VolumeStream) SetSlabVoxels(n int) { vs.slabVoxels = n }
