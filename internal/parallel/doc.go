// Package parallel splits index ranges over goroutines and allocates the
// large slices those goroutines fill, with their page faults taken where
// they cost least.
package parallel
