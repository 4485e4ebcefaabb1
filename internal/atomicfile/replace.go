package atomicfile

import "os"

// replace moves the complete temporary file tmp to path, replacing what is
// there, and reports whether the old file now sits at tmp for the caller
// to remove.
//
// Where path holds a regular file, the two names are exchanged atomically
// (Linux's RENAME_EXCHANGE) where the system can: a rename over an existing
// file makes ext4 allocate and start writing the new file's blocks before
// it returns, which for a file of gigabytes costs the caller seconds;
// the exchange leaves that to the usual write-back. Elsewhere, and for
// anything but a regular file, it renames.
func replace(tmp, path string) (oldAtTmp bool, err error) {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
		if exchange(tmp, path) == nil {
			return true, nil
		}
	}
	return false, os.Rename(tmp, path)
}
