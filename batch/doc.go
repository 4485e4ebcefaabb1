// Package batch runs one labeling job over many files. It expands the inputs
// (files, folders, globs and @list files), picks a deterministic shard of
// them for one machine of a cluster job, runs the files through a pipeline
// that overlaps decoding, labeling and encoding with bounded memory, reports
// progress, and reads, writes and merges the per-file summary tables. It
// knows nothing about file formats: the caller says which files a folder walk
// takes and supplies the per-file stages.
package batch
