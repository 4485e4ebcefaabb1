package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// npyFile builds a .npy file from a header dictionary and raw data.
func npyFile(dict string, data []byte) []byte {
	pad := 64 - (10+len(dict)+1)%64
	if pad == 64 {
		pad = 0
	}
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(dict)+pad+1))
	b = append(b, dict...)
	b = append(b, strings.Repeat(" ", pad)...)
	b = append(b, '\n')
	return append(b, data...)
}

func TestReadNPY(t *testing.T) {
	be := []byte{0, 1, 0, 2, 0, 3, 1, 0, 0, 0, 0, 7}
	tests := []struct {
		name    string
		file    []byte
		w, h, d int
		kind    imagegraph.SampleKind
		values  []float64
	}{
		{"uint8 C (H,W)", npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }", []byte{1, 2, 3, 4, 5, 6}),
			3, 2, 1, imagegraph.Uint8, []float64{1, 2, 3, 4, 5, 6}},
		{"big-endian int16 Fortran (X,Y)", npyFile("{'descr': '>i2', 'fortran_order': True, 'shape': (3, 2), }", be),
			3, 2, 1, imagegraph.Int16, []float64{1, 2, 3, 256, 0, 7}},
		{"float32 3D (Z,Y,X)", npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1, 1), }",
			binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)), math.Float32bits(-2))),
			1, 1, 2, imagegraph.Float32, []float64{1.5, -2}},
		{"bool", npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (1, 2), }", []byte{0, 1}),
			2, 1, 1, imagegraph.Uint8, []float64{0, 1}},
	}
	for _, tc := range tests {
		r, err := Read(bytes.NewReader(tc.file), int64(len(tc.file)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []float64
		for i := range r.Len() {
			got = append(got, r.Value(i))
		}
		if r.Width != tc.w || r.Height != tc.h || r.Depth != tc.d || r.Kind != tc.kind || !slices.Equal(got, tc.values) {
			t.Errorf("%s: %dx%dx%d %v %v", tc.name, r.Width, r.Height, r.Depth, r.Kind, got)
		}
	}
}

func TestReadNPYErrors(t *testing.T) {
	good := npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }", []byte{1, 2, 3, 4, 5, 6})
	tests := map[string][]byte{
		"empty":          nil,
		"bad magic":      append([]byte("\x93NUMPX"), good[6:]...),
		"truncated data": good[:len(good)-2],
		"trailing data":  append(append([]byte{}, good...), 9),
		"1D":             npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (6,), }", []byte{1, 2, 3, 4, 5, 6}),
		"4D":             npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 1, 1), }", []byte{1}),
		"complex":        npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1, 1), }", make([]byte, 8)),
		"object":         npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (1, 1), }", make([]byte, 8)),
		"zero size":      npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (0, 3), }", nil),
		"huge shape":     npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }", nil),
		"no shape":       npyFile("{'descr': '|u1', 'fortran_order': False, }", nil),
		"bad version":    append([]byte("\x93NUMPY\x09\x00"), good[8:]...),
	}
	for name, file := range tests {
		if _, err := Read(bytes.NewReader(file), int64(len(file))); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "npy: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %q is not one 'npy: ' line", name, err)
		}
	}
	// Unknown size: a lying header fails on the short stream.
	lying := npyFile("{'descr': '<u2', 'fortran_order': False, 'shape': (3000, 3000), }", []byte{1, 2})
	if _, err := Read(bytes.NewReader(lying), -1); err == nil {
		t.Error("short stream accepted")
	}
}

func TestNPYRoundTrip(t *testing.T) {
	labels := []uint32{0, 1, 2, 70000, 5, 6}
	var buf bytes.Buffer
	if err := WriteLabels(&buf, labels, []int{2, 3}, "uint32"); err != nil {
		t.Fatal(err)
	}
	r, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if r.Width != 3 || r.Height != 2 || !slices.Equal(r.Data.(imagegraph.Samples[uint32]), labels) {
		t.Fatalf("round trip gave %dx%d %v", r.Width, r.Height, r.Data)
	}
	if err := WriteLabels(&buf, labels, []int{2, 3}, "uint16"); err == nil {
		t.Fatal("70000 written as uint16")
	}
}

func FuzzReadNPY(f *testing.F) {
	f.Add(npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }", []byte{1, 2, 3, 4, 5, 6}))
	f.Add(npyFile("{'descr': '>i4', 'fortran_order': True, 'shape': (1, 1, 2), }", make([]byte, 8)))
	f.Add([]byte("\x93NUMPY\x02\x00\x10\x00\x00\x00{'descr': '<f8'}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil || int64(r.Len())*int64(r.Kind.Size()) > int64(len(data)) {
			t.Fatalf("accepted an invalid raster: %v", err)
		}
	})
}

func TestNPYFortranRoundTrip(t *testing.T) {
	labels := []uint32{1, 2, 3, 4, 5, 6}
	var buf bytes.Buffer
	if err := WriteLabelsOrder(&buf, labels, []int{3, 2, 1}, "uint16", true); err != nil {
		t.Fatal(err)
	}
	r, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if r.Width != 3 || r.Height != 2 || r.Depth != 1 || r.Value(4) != 5 {
		t.Fatalf("fortran round trip: %dx%dx%d", r.Width, r.Height, r.Depth)
	}
}
