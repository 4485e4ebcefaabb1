// Package labelfile labels one image or volume file the way the cclabel
// command does: it labels a decoded input through a cclabel.Labeler,
// applies the size filters, and writes the outputs (coloured label map or
// overlay, label array, label volume with the input's geometry, preview,
// statistics), each through a temporary file that is renamed into place.
//
// It also names outputs after their inputs (Stem, ImageOutputsIn,
// VolumeOutputsIn), and Batch supplies the stages of "cclabel batch" to
// package batch's pipeline: outputs mirrored under a folder, inputs with
// up-to-date outputs skipped, the summary rows filled in.
//
// Reading is formats.ReadImageFile and formats.ReadVolumeFile (batch maps
// .npy samples with formats.MapImageFile and MapVolumeFileStreaming); labelfile
// is what "cclabel label", "cclabel volume" and "cclabel batch" share, so
// that their outputs are the same bytes.
package job
