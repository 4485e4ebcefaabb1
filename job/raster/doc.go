// Package inmemory labels one image or volume held in memory, or a volume
// while it is read ([VolumeStream]), applies the size filters, and writes
// its outputs (label map or overlay, label array, label volume with the
// input's geometry, preview, statistics), each through a temporary file
// renamed into place. It names outputs after their inputs ([Stem]). The
// jobs of package job are built on it.
package inmemory
