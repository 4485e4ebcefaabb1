// Package render draws label maps for people to look at: a distinct,
// deterministic colour per label (LabelColor), colour label images
// (ColorLabels, streamed to PNG row by row by WriteColorLabelsPNG), label
// colours blended over the input image (Overlay), a montage of a label
// volume's three mid-slices (VolumePreview), and PNG output (WritePNG;
// WriteLabelsPNG16 writes the labels themselves as 16-bit grey).
//
// Errors are one line and start with "formats: ", as those of the
// format packages.
package render
