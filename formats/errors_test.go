package formats

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestTypedErrors checks that the readers' errors are typed: malformed
// content gives a *FormatError naming the path and format, a valid file
// of an unsupported kind an *UnsupportedError, a missing file a
// *FileError wrapping fs.ErrNotExist; and that each message is the
// error's own, one line starting with "formats: PATH: ".
func TestTypedErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// A valid NIfTI file whose datatype is then set to complex64 (32).
	complexNIfTI := filepath.Join(dir, "complex.nii")
	r := &imagegraph.Raster{Width: 2, Height: 2, Depth: 1, Kind: imagegraph.Uint16, Data: make([]uint16, 4)}
	if err := nifti.WriteLabels(complexNIfTI, imagegraph.NewVolume(r, "npy"), [][]uint32{make([]uint32, 4)}, "uint16"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(complexNIfTI)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint16(data[70:], 32)
	write("complex.nii", data)
	complexNPY := append(npyHead("<c8"), make([]byte, 32)...)
	read := func(path string) error { _, err := ReadVolumeFile(path, nil); return err }
	readImage := func(path string) error { _, err := ReadImageFile(path, nil); return err }
	readGraph := func(path string) error { _, err := graphio.ReadFile(path, graphio.ReadOptions{}); return err }
	var format *FormatError
	var unsupported *UnsupportedError
	var file *FileError
	for _, tc := range []struct {
		name   string
		err    error
		target any
		format string
	}{
		{"nifti malformed", read(write("zero.nii", make([]byte, 400))), &format, "nifti"},
		{"nifti datatype", read(complexNIfTI), &unsupported, "nifti"},
		{"nrrd malformed", read(write("bad.nrrd", []byte("NRRD0004\ntype: short\n\n"))), &format, "nrrd"},
		{"nrrd encoding", read(write("jpeg.nrrd", []byte("NRRD0004\ntype: short\ndimension: 3\nsizes: 1 1 1\nencoding: jpeg\n\n"))), &unsupported, "nrrd"},
		{"npy malformed", read(write("bad.npy", []byte("not numpy"))), &format, "npy"},
		{"npy dtype", read(write("complex.npy", complexNPY)), &unsupported, "npy"},
		{"raw dtype", func() error {
			_, err := ReadVolumeFile(write("v.raw", make([]byte, 8)), &RawOptions{Shape: [3]int{2, 2, 2}, DType: "complex64"})
			return err
		}(), &unsupported, "raw"},
		{"raw size", func() error {
			_, err := ReadVolumeFile(filepath.Join(dir, "v.raw"), &RawOptions{Shape: [3]int{3, 3, 3}, DType: "uint8"})
			return err
		}(), &format, "raw"},
		{"tiff malformed", read(write("bad.tif", []byte("II*\x00\xff\xff\xff\x00"))), &format, "tiff"},
		{"png malformed", readImage(write("bad.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"))), &format, "png"},
		{"image format", readImage(write("text.png", []byte("hello, world"))), &unsupported, ""},
		{"volume extension", read(filepath.Join(dir, "scan.xyz")), &unsupported, ""},
		{"graph line", readGraph(write("g.txt", []byte("1 2\n3 x\n"))), &format, ""},
		{"graph extension", readGraph(write("g.xyz", []byte("1 2\n"))), &unsupported, ""},
		{"missing", read(filepath.Join(dir, "missing.nii")), &file, ""},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msg := tc.err.Error()
		if !(strings.HasPrefix(msg, "formats: "+dir) || strings.HasPrefix(msg, "formats: open "+dir)) || strings.ContainsAny(msg, "\r\n") {
			t.Errorf("%s: message %q is not one line starting with \"formats: PATH\"", tc.name, msg)
		}
		if !errors.As(tc.err, tc.target) {
			t.Errorf("%s: %T (%v) is not a %T", tc.name, tc.err, tc.err, tc.target)
			continue
		}
		switch e := tc.target.(type) {
		case **FormatError:
			if (*e).Format != tc.format || !strings.HasPrefix((*e).Path, dir) || (*e).Error() != msg {
				t.Errorf("%s: format %q path %q message %q", tc.name, (*e).Format, (*e).Path, (*e).Error())
			}
		case **UnsupportedError:
			if (*e).Format != tc.format || !strings.HasPrefix((*e).Path, dir) || (*e).Error() != msg {
				t.Errorf("%s: format %q path %q message %q", tc.name, (*e).Format, (*e).Path, (*e).Error())
			}
		case **FileError:
			if !errors.Is(tc.err, fs.ErrNotExist) {
				t.Errorf("%s: %v does not wrap fs.ErrNotExist", tc.name, tc.err)
			}
		}
	}
}

// npyHead returns a .npy 1.0 header of a (2, 2) C-order array of descr.
func npyHead(descr string) []byte {
	dict := "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2, 2), }"
	dict += strings.Repeat(" ", 63-(10+len(dict))%64) + "\n"
	return append(binary.LittleEndian.AppendUint16([]byte("\x93NUMPY\x01\x00"), uint16(len(dict))), dict...)
}
