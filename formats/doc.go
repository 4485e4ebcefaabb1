// Package formats picks the reader or writer of a volume file from its
// path, for the CLI and batch runs: ReadVolumeFile reads NIfTI, NRRD, TIFF
// stacks, folders of slices, .npy and raw data as an imagegraph.Volume;
// WriteVolumeLabels writes label volumes as NIfTI, NRRD or .npy with the
// input's geometry; LabelVolumeExt and IsLabelVolumePath name and check
// label-volume paths. ReadImageFile reads a 2D image or .npy array as an
// Image; KindOf, IsInputName, FamilyExt and EstimateBytes classify input
// files for batch runs. MapImageFile and MapVolumeFileStreaming map the
// samples of .npy and raw inputs from the file instead of copying them
// (npy.MapFile, raw.MapFile), until the caller releases them.
//
// The formats themselves live in one package each, behind the shared
// imagegraph.Raster and imagegraph.Volume types:
//
//   - formats/imageio: 2D images (PNG, JPEG with EXIF orientation, GIF,
//     BMP, TIFF, WebP) and folders of 2D slices
//   - formats/tiff: multi-page TIFF files (page counts, stacks)
//   - formats/nifti: NIfTI-1 and NIfTI-2 volumes and label volumes
//   - formats/nrrd: NRRD volumes and label volumes
//   - formats/npy: NumPy .npy arrays and label arrays
//   - formats/raw: headerless raw volumes and binary samples
//   - formats/graphio: graphs (.egr, Matrix Market, edge lists, DIMACS; plain
//     or compressed with gzip, zstd, xz or bzip2)
//
// Label images for display (colours, overlays, previews, PNG) are drawn
// by package render; statistics files are written by
// WriteStats and WriteVolumeStats.
//
// Every reader checks sizes against the file before allocating. Every
// error is a single line that starts with "formats: " and, for a file,
// names it: "formats: PATH: nifti: ...".
package formats
