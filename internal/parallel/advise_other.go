//go:build !linux

package parallel

// adviseHuge does nothing where transparent huge pages are not a thing.
func adviseHuge(b []byte) {}

// canPopulate says whether populateWrite may work here.
const canPopulate = false

// populateWrite is not available here.
func populateWrite(b []byte) error { return nil }
