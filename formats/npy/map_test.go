package npy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
)

// npyFileV builds a .npy file of format version major (1, 2 or 3) whose
// header is padded so that the samples start at an offset of pad mod 64
// (0: NumPy's alignment).
func npyFileV(major byte, dict string, pad int, data []byte) []byte {
	pre := 10
	if major > 1 {
		pre = 12
	}
	fill := (64 - (pre+len(dict)+1)%64 + pad) % 64
	hlen := len(dict) + fill + 1
	b := []byte{0x93, 'N', 'U', 'M', 'P', 'Y', major, 0}
	if major == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(hlen))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(hlen))
	}
	b = append(b, dict...)
	b = append(b, strings.Repeat(" ", fill)...)
	b = append(b, '\n')
	return append(b, data...)
}

// writeTemp writes b to a file in t's temporary folder.
func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameRaster fails t unless a and b have the same shape, kind and samples.
func sameRaster(t *testing.T, name string, a, b *imagegraph.Raster) {
	t.Helper()
	if a.Width != b.Width || a.Height != b.Height || a.Depth != b.Depth || a.Kind != b.Kind {
		t.Fatalf("%s: mapped %dx%dx%d %v, read %dx%dx%d %v", name, a.Width, a.Height, a.Depth, a.Kind, b.Width, b.Height, b.Depth, b.Kind)
	}
	if reflect.TypeOf(a.Data) != reflect.TypeOf(b.Data) || !bytes.Equal(sampleBytes(a.Data), sampleBytes(b.Data)) {
		t.Fatalf("%s: mapped samples %T differ from the read ones %T", name, a.Data, b.Data)
	}
}

// sampleBytes is a sample slice's memory (floats compared bit for bit,
// NaNs included).
func sampleBytes(s any) []byte {
	v := reflect.ValueOf(s)
	if v.Len() == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(v.UnsafePointer()), v.Len()*int(v.Type().Elem().Size()))
}

// TestMapFileMatchesReadFile compares MapFile with ReadFile on every
// sample type, both byte orders, C and Fortran order, 2D and 3D, every
// format version and aligned and misaligned sample offsets (mapped where
// possible, read otherwise: the rasters must be the same).
func TestMapFileMatchesReadFile(t *testing.T) {
	codes := []string{"u1", "b1", "i1", "u2", "i2", "u4", "i4", "u8", "i8", "f4", "f8"}
	for _, code := range codes {
		size := int(code[1] - '0')
		for _, order := range []string{"<", ">", "|"} {
			if (order == "|") != (size == 1) && order != "<" {
				continue
			}
			for _, shape := range []string{"(3, 5)", "(2, 3, 5)", "(64, 70)"} {
				for _, fortran := range []string{"False", "True"} {
					for _, major := range []byte{1, 3} {
						for _, pad := range []int{0, 2} {
							dict := fmt.Sprintf("{'descr': '%s%s', 'fortran_order': %s, 'shape': %s, }", order, code, fortran, shape)
							n := 15
							switch shape {
							case "(2, 3, 5)":
								n = 30
							case "(64, 70)":
								n = 64 * 70
							}
							data := make([]byte, n*size)
							for i := range data {
								data[i] = byte(i*37 + 11)
							}
							if code == "b1" {
								for i := range data {
									data[i] &= 1
								}
							}
							name := fmt.Sprintf("v%d %s pad %d", major, dict, pad)
							path := writeTemp(t, "a.npy", npyFileV(major, dict, pad, data))
							mapped, release, err := MapFile(path)
							if err != nil {
								t.Fatalf("%s: MapFile: %v", name, err)
							}
							read, err := ReadFile(path)
							if err != nil {
								t.Fatalf("%s: ReadFile: %v", name, err)
							}
							sameRaster(t, name, mapped, read)
							release()
							release() // a second release does nothing
						}
					}
				}
			}
		}
	}
}

// TestMapFileMapsWherePossible checks which arrays are mapped rather
// than read: one-byte samples at any offset, wider ones in the machine's
// byte order at an aligned offset.
func TestMapFileMapsWherePossible(t *testing.T) {
	if runtime.GOOS != "linux" || binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("files are mapped on little-endian Linux")
	}
	tests := []struct {
		descr  string
		pad    int
		mapped bool
	}{
		{"|u1", 0, true}, {"|u1", 3, true}, {"|i1", 1, true}, {"<u2", 0, true}, {"<f8", 0, true},
		{"<u2", 1, false}, {"<f4", 2, false}, {">u2", 0, false}, {">i4", 0, false},
	}
	for _, tc := range tests {
		dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (2, 4), }", tc.descr)
		path := writeTemp(t, "m.npy", npyFileV(1, dict, tc.pad, make([]byte, 8*int(tc.descr[2]-'0'))))
		r, release, err := mapFile(path)
		if err != nil {
			t.Fatalf("%s pad %d: %v", tc.descr, tc.pad, err)
		}
		if (r != nil) != tc.mapped {
			t.Errorf("%s pad %d: mapped %v, want %v", tc.descr, tc.pad, r != nil, tc.mapped)
		}
		if release != nil {
			release()
		}
	}
}

// TestMapFileErrors checks that every file ReadFile refuses MapFile
// refuses with the same one-line error, without a panic.
func TestMapFileErrors(t *testing.T) {
	good := npyFile("{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }", make([]byte, 12))
	tests := map[string][]byte{
		"empty":            nil,
		"magic only":       good[:6],
		"bad magic":        append([]byte("\x93NUMPX"), good[6:]...),
		"truncated header": good[:20],
		"truncated data":   good[:len(good)-1],
		"no data":          good[:len(good)-12],
		"trailing data":    append(append([]byte{}, good...), 9),
		"1D":               npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (6,), }", make([]byte, 6)),
		"complex":          npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1, 1), }", make([]byte, 8)),
		"zero size":        npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (0, 3), }", nil),
		"huge shape":       npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }", nil),
		"bad version":      append([]byte("\x93NUMPY\x09\x00"), good[8:]...),
	}
	for name, file := range tests {
		path := writeTemp(t, "bad.npy", file)
		_, _, merr := MapFile(path)
		_, rerr := ReadFile(path)
		if merr == nil || rerr == nil {
			t.Fatalf("%s: MapFile error %v, ReadFile error %v", name, merr, rerr)
		}
		if merr.Error() != rerr.Error() || strings.Contains(merr.Error(), "\n") {
			t.Errorf("%s: MapFile says %q, ReadFile %q", name, merr, rerr)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.npy")
	_, _, merr := MapFile(missing)
	_, rerr := ReadFile(missing)
	if merr == nil || rerr == nil || merr.Error() != rerr.Error() {
		t.Errorf("missing file: MapFile says %v, ReadFile %v", merr, rerr)
	}
}

// TestMapFileOutlivesTheFile checks that mapped samples stay valid after
// the file is removed, until release.
func TestMapFileOutlivesTheFile(t *testing.T) {
	data := bytes.Repeat([]byte{1, 0, 2}, 4096)
	path := writeTemp(t, "gone.npy", npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 4096), }", data))
	r, release, err := MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Data.(imagegraph.Samples[uint8]), data) {
		t.Fatal("mapped samples changed after the file was removed")
	}
}

func FuzzMapFile(f *testing.F) {
	f.Add(npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }", []byte{1, 2, 3, 4, 5, 6}))
	f.Add(npyFile("{'descr': '<i4', 'fortran_order': True, 'shape': (1, 1, 2), }", make([]byte, 8)))
	f.Add(npyFileV(2, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }", 4, make([]byte, 16)))
	f.Add([]byte("\x93NUMPY\x02\x00\x10\x00\x00\x00{'descr': '<f8'}"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "f.npy")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		mapped, release, merr := MapFile(path)
		read, rerr := Read(bytes.NewReader(data), int64(len(data)))
		if (merr == nil) != (rerr == nil) {
			t.Fatalf("MapFile error %v, Read error %v", merr, rerr)
		}
		if merr != nil {
			return
		}
		defer release()
		sameRaster(t, "fuzz", mapped, read)
	})
}
