// Package outofcore labels volumes larger than memory. A volume file is
// read a slab of planes at a time (formats.OpenVolumeStream); each slab
// is labeled in memory, joined to the previous one at their seam
// (package slabs), and its local labels are spilled to a temporary file.
// A second pass reads them back, maps them to the volume's labels and
// writes the label volume (formats.WriteVolumeLabelsFunc). Only the
// current slab, the seam planes and the union-find over the slabs' labels
// are held, and the labels are the in-memory labeling's, bit for bit.
package outofcore
