//go:build !linux

package bigslice

// adviseHuge does nothing where transparent huge pages are not a thing.
func adviseHuge(b []byte) {}
