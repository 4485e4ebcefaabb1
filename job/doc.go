// Package job runs the commands of cclabel as library calls. There is one job
// per command ([Image], [Volume], [Graph], [Merge], [Convert]), a struct of
// inputs, outputs and settings whose Run reads, labels through a
// [cclabel.Labeler] and writes, deciding itself whether a volume is labeled
// while it is read, out of core or in chunks. Outputs appear whole or not at
// all, and never replace an input.
package job
