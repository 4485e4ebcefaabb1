//go:build !linux

package parallel

// canDiscard says whether discard frees pages here.
const canDiscard = false

// discard does nothing: the pages are freed when the buffer is.
func discard([]byte) {}
