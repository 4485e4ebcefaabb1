// Package raster labels the images and volumes of package job's jobs. It
// labels and writes the outputs of one image or volume held in memory
// (frames, NIfTI scaling, size filters), a volume while it is read
// ([VolumeStream]), a volume larger than memory slab by slab
// ([LabelOutOfCore]) or a chunk of its planes at a time ([LabelChunk], joined
// by [Merge]). Outputs (label map or overlay, label array, label volume with
// the input's geometry, preview, statistics) go through temporary files
// renamed into place and are named after their inputs ([Stem]).
package raster

// The errors of the out-of-core, chunk and streamed paths keep the prefixes
// "outofcore:" and "labelfile:" that their messages have always had, so
// that the messages users and scripts match stay the same.
