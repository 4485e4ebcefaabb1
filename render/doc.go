// Package render draws label maps for people to look at.
//
// It gives every label a distinct, deterministic colour ([LabelColor]),
// blends label colours over input images ([Overlay]), renders montages of
// label volumes ([VolumePreview]) and writes PNG files ([WritePNG],
// [WriteColorLabelsPNG], [WriteLabelsPNG16]). Errors are one line and
// start with "formats: ", as those of the format packages.
package render
