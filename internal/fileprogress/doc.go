// Package fileprogress shows how far the work on one long file is.
//
// A [Bar] displays a file's stages, and a [Meter] counts the work that
// the readers, writers and labelers of this module report on it.
package fileprogress
