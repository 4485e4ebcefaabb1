// Package ecl computes the connected components of CSR graphs on the CPU.
//
// It implements ECL-CC (Jaiganesh and Burtscher, HPDC'18) and its variants
// ECLaf and Afforest; every algorithm gives each vertex the smallest vertex
// ID of its component as its representative. The CPU labelers of images and
// volumes share its hooking rule on runs of pixels.
package ecl
