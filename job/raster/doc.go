// Package raster labels the images and volumes of the jobs of package job
// and writes their outputs: one image or volume held in memory (frames,
// NIfTI scaling, size filters), a volume while it is read
// ([VolumeStream]), a volume larger than memory slab by slab
// ([LabelOutOfCore]) or a chunk of its planes at a time ([LabelChunk],
// joined by [Merge]). Outputs (label map or overlay, label array, label
// volume with the input's geometry, preview, statistics) go through
// temporary files renamed into place and are named after their inputs
// ([Stem]).
//
// Out of core, a volume file is read a slab of planes at a time
// (formats.OpenVolumeStream); each slab is labeled in memory, joined to
// the previous one at their seam, and its local labels are spilled to a
// temporary file (slabs.Label). A second pass reads them back, maps them
// to the volume's labels and writes the label volume
// (formats.WriteVolumeLabelsFunc). Only the current slab, the seam planes
// and the union-find over the slabs' labels are held, and the labels are
// the in-memory labeling's, bit for bit.
package raster
