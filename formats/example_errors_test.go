package formats_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cclabel/cclabel/formats"
)

// Errors of the format packages are typed: errors.As tells malformed
// content (a FormatError) from a valid file of an unsupported kind (an
// UnsupportedError) and from a file that cannot be read (a FileError).
func Example_errors() {
	dir, err := os.MkdirTemp("", "formats-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	broken := filepath.Join(dir, "broken.nii")
	if err := os.WriteFile(broken, make([]byte, 400), 0o644); err != nil {
		panic(err)
	}
	for _, path := range []string{broken, filepath.Join(dir, "scan.xyz"), filepath.Join(dir, "missing.nrrd")} {
		_, err := formats.ReadVolumeFile(path, nil)
		var malformed *formats.FormatError
		var unsupported *formats.UnsupportedError
		var file *formats.FileError
		switch {
		case errors.As(err, &malformed):
			fmt.Printf("%s: malformed %s file: %v\n", filepath.Base(malformed.Path), malformed.Format, malformed.Err)
		case errors.As(err, &unsupported):
			fmt.Printf("%s: unsupported: %v\n", filepath.Base(unsupported.Path), unsupported.Err)
		case errors.As(err, &file):
			fmt.Printf("%s: cannot read it (not found: %v)\n", filepath.Base(file.Path), errors.Is(err, fs.ErrNotExist))
		}
	}
	// Output:
	// broken.nii: malformed nifti file: not a NIfTI file (sizeof_hdr 0 is neither 348 nor 540)
	// scan.xyz: unsupported: unknown volume format (want .nii, .nii.gz, .hdr/.img, .nrrd, .nhdr, .tif, .npy, a folder of slices, or raw with a shape)
	// missing.nrrd: cannot read it (not found: true)
}
