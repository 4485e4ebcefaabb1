package formats

import (
	"os"
	"path/filepath"
	"strings"
)

// MapsSamples reports whether MapImageFile or MapVolumeFileStreaming maps
// the samples of path (rawOpts as for ReadVolumeFile) rather than reading
// them, as far as the name tells: raw inputs and .npy files. Such a read
// takes next to no time (a file whose samples cannot be used in place is
// still read).
func MapsSamples(path string, rawOpts *RawOptions) bool {
	if rawOpts != nil {
		return true
	}
	if path == "-" || !strings.EqualFold(filepath.Ext(path), ".npy") {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
