package raster

// SetSlabVoxels sets the fewest voxels of the stream's slabs, and lets it
// stream on any thread count.
func (vs *VolumeStream) SetSlabVoxels(n int) { vs.slabVoxels, vs.minThreads = n, 1 }

// SetBands makes the stream label band by band (below streamMinThreads
// threads) volumes of at least minVoxels voxels, in bands bands (0: the
// default count).
func (vs *VolumeStream) SetBands(minVoxels, bands int) { vs.bandMinVoxels, vs.bands = minVoxels, bands }
