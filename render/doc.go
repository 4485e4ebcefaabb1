// Package render draws label maps for people to look at: a distinct,
// deterministic colour per label (LabelColor), colour label images
// (ColorLabels; WriteColorLabelsPNG colours and compresses bands of rows
// on all cores without holding the colour image), label colours blended
// over the input image (Overlay), a montage of a label volume's three
// mid-slices (VolumePreview), and PNG output (WritePNG; WritePNGText adds
// a text chunk; WriteLabelsPNG16 writes the labels themselves as 16-bit
// grey, compressed on all cores).
//
// Errors are one line and start with "formats: ", as those of the
// format packages.
package render
