package raw

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"
)

// TestMapFileMatchesReadFile compares MapFile with ReadFile on every
// dtype in both byte orders (mapped or read, the volume is the same), and
// their errors on files that do not fit.
func TestMapFileMatchesReadFile(t *testing.T) {
	dir := t.TempDir()
	shape := [3]int{5, 3, 2}
	for dtype, kind := range rawDtypes {
		data := make([]byte, 30*kind.Size())
		for i := range data {
			data[i] = byte(i*29 + 3)
		}
		path := filepath.Join(dir, dtype+".raw")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, big := range []bool{false, true} {
			mapped, release, err := MapFile(path, shape, dtype, big)
			if err != nil {
				t.Fatalf("%s big=%v: %v", dtype, big, err)
			}
			read, err := ReadFile(path, shape, dtype, big)
			if err != nil {
				t.Fatal(err)
			}
			a, b := mapped.Frames[0], read.Frames[0]
			if a.Width != b.Width || a.Height != b.Height || a.Depth != b.Depth || a.Kind != b.Kind ||
				mapped.Format != read.Format || mapped.Spacing != read.Spacing || mapped.Affine != read.Affine {
				t.Fatalf("%s big=%v: mapped volume differs from the read one", dtype, big)
			}
			if reflect.TypeOf(a.Data) != reflect.TypeOf(b.Data) || string(bytesOf(a.Data)) != string(bytesOf(b.Data)) {
				t.Fatalf("%s big=%v: mapped samples differ from the read ones", dtype, big)
			}
			release()
		}
		for _, bad := range [][3]int{{5, 3, 3}, {0, 3, 2}} {
			_, _, merr := MapFile(path, bad, dtype, false)
			_, rerr := ReadFile(path, bad, dtype, false)
			if merr == nil || rerr == nil || merr.Error() != rerr.Error() {
				t.Errorf("%s shape %v: MapFile error %v, ReadFile error %v", dtype, bad, merr, rerr)
			}
		}
	}
	_, _, merr := MapFile(filepath.Join(dir, "absent"), shape, "uint8", false)
	_, rerr := ReadFile(filepath.Join(dir, "absent"), shape, "uint8", false)
	if merr == nil || rerr == nil || merr.Error() != rerr.Error() {
		t.Errorf("missing file: MapFile error %v, ReadFile error %v", merr, rerr)
	}
}

// bytesOf is a sample slice's memory.
func bytesOf(s any) []byte {
	v := reflect.ValueOf(s)
	return unsafe.Slice((*byte)(v.UnsafePointer()), v.Len()*int(v.Type().Elem().Size()))
}
