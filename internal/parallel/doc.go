// Package parallel splits index ranges over goroutines and allocates the
// slices they fill.
//
// It takes the page faults of large slices where they cost least.
package parallel
