package nifti

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// niftiFuzzSeeds returns small valid files of both versions and byte
// orders, plain and gzipped; the committed corpus adds invalid ones.
func niftiFuzzSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, s := range []niftiSpec{
		{version: 1, datatype: 2, dims: []int{3, 3, 2}, slope: 1},
		{version: 1, bigEndian: true, datatype: 4, dims: []int{3, 2, 2}, slope: 2, inter: -1},
		{version: 2, datatype: 16, dims: []int{2, 2, 2, 2}, ext: make([]byte, 16), extender: true},
		{version: 2, bigEndian: true, datatype: 512, dims: []int{4, 3}},
		{version: 1, datatype: 64, dims: []int{2, 2, 2}, gz: true},
	} {
		data, _, _ := niftiBuild(t, s)
		seeds = append(seeds, data)
	}
	return seeds
}

func FuzzReadNIfTI(f *testing.F) {
	for _, seed := range niftiFuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var vols [2]*imagegraph.Volume
		var errs [2]error
		for i, size := range []int64{int64(len(data)), -1} {
			vols[i], errs[i] = Read(bytes.NewReader(data), size)
			if err := errs[i]; err != nil {
				if msg := err.Error(); !strings.HasPrefix(msg, "nifti: ") || strings.ContainsAny(msg, "\r\n") {
					t.Fatalf("error %q is not one line starting with \"nifti: \"", msg)
				}
				continue
			}
			niftiCheckVolume(t, vols[i])
		}
		if (errs[0] == nil) != (errs[1] == nil) {
			t.Fatalf("size known: %v; size unknown: %v", errs[0], errs[1])
		}
		if errs[0] == nil && niftiVolumeText(vols[0]) != niftiVolumeText(vols[1]) {
			t.Fatal("size known and unknown give different volumes")
		}
	})
}

// niftiVolumeText prints a volume, its frames and header (NaN-safe, unlike
// reflect.DeepEqual).
func niftiVolumeText(v *imagegraph.Volume) string {
	s := fmt.Sprint(v.Slope, v.Inter, v.Spacing, v.Affine, v.Format, *v.Header.(*Header))
	for _, f := range v.Frames {
		s += fmt.Sprint(*f)
	}
	return s
}

// niftiCheckVolume checks that an accepted volume is consistent with its
// header.
func niftiCheckVolume(t *testing.T, v *imagegraph.Volume) {
	h, ok := v.Header.(*Header)
	if !ok || h == nil {
		t.Fatalf("header %T", v.Header)
	}
	l, err := h.layout()
	if err != nil {
		t.Fatalf("accepted a header that fails its checks: %v", err)
	}
	if len(v.Frames) != l.frames || len(v.Frames) < 1 {
		t.Fatalf("%d frames, header says %d", len(v.Frames), l.frames)
	}
	for _, f := range v.Frames {
		if err := f.Validate(); err != nil {
			t.Fatal(err)
		}
		if f.Width != l.width || f.Height != l.height || f.Depth != l.depth || f.Kind != l.kind {
			t.Fatalf("frame %dx%dx%d %v, header says %s %v", f.Width, f.Height, f.Depth, f.Kind, niftiShape(l), l.kind)
		}
	}
	if v.Slope == 0 || !niftiFinite(v.Slope) || !niftiFinite(v.Inter) {
		t.Fatalf("scaling %g, %g", v.Slope, v.Inter)
	}
	for _, s := range v.Spacing {
		if !(s > 0) || !niftiFinite(s) {
			t.Fatalf("spacing %v", v.Spacing)
		}
	}
	if v.Format != "nifti1" && v.Format != "nifti2" {
		t.Fatalf("format %q", v.Format)
	}
}

// TestNIfTIFuzzCorpus checks that the committed seeds named valid_* read
// and those named invalid_* fail.
func TestNIfTIFuzzCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/fuzz/FuzzReadNIfTI/*")
	valid := 0
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
			t.Fatalf("%s: not a fuzz corpus file", path)
		}
		data, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		_, err = Read(strings.NewReader(data), int64(len(data)))
		name := filepath.Base(path)
		switch {
		case strings.HasPrefix(name, "valid_") && err != nil:
			t.Errorf("%s: %v", name, err)
		case strings.HasPrefix(name, "invalid_") && err == nil:
			t.Errorf("%s: no error", name)
		case strings.HasPrefix(name, "valid_"):
			valid++
		}
	}
	if valid < 5 {
		t.Errorf("only %d valid seeds", valid)
	}
}
