//go:build !linux

package csrfile

// populateRead does nothing: the pages fault in on first use.
func populateRead([]byte) error { return ErrNoMap }
