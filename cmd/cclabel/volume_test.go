package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/cclabel/cclabel/job"
)

func TestVolumeExpectedThroughCLI(t *testing.T) {
	dir := t.TempDir()
	cases := testkit.Cases(t, func(c testkit.Case) bool {
		return strings.HasPrefix(c.File, "volumes/") || c.Connectivity > 8
	})
	if len(cases) < 20 {
		t.Fatalf("%d volume cases", len(cases))
	}
	for i, c := range cases {
		t.Run(filepath.Base(c.File)+"/"+c.Mode+"/"+strconv.Itoa(c.Connectivity), func(t *testing.T) {
			out := filepath.Join(dir, strconv.Itoa(i)+".npy")
			args := append([]string{"volume", sharedData(t, c.File), "-c", strconv.Itoa(c.Connectivity),
				"--labels", out, "--dtype", "uint32", "--json"}, modeFlags(c.Mode)...)
			r := runCLI(t, "", args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var s job.VolumeSummary
			if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.Components != c.Components {
				t.Fatalf("summary %q (%v), want %d components", r.stdout, err, c.Components)
			}
			if s.Width != c.Shape[0] || s.Height != c.Shape[1] || (len(c.Shape) > 2 && s.Depth != c.Shape[2]) {
				t.Fatalf("shape %dx%dx%d, want %v", s.Width, s.Height, s.Depth, c.Shape)
			}
			_, labels := readNPYLabels(t, out)
			if got := testkit.LabelsSHA256(labels); got != c.SHA256 {
				t.Fatalf("sha256 %s, want %s", got, c.SHA256)
			}
		})
	}
}

func TestVolumeOutputsAndGeometry(t *testing.T) {
	in := sharedData(t, "volumes/pyradiomics_prostate_phantom_subvolume-label.nrrd")
	dir := t.TempDir()
	nii, nrrd, preview, stats := filepath.Join(dir, "l.nii.gz"), filepath.Join(dir, "l.nrrd"), filepath.Join(dir, "p.png"), filepath.Join(dir, "s.csv")
	r := runCLI(t, "", "volume", in, "-c", "6", "-o", nii, "--labels", nrrd, "--preview", preview, "--stats", stats)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, p := range []string{nii, nrrd, preview, stats} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Fatalf("%s missing: %v", p, err)
		}
	}
	csv, _ := os.ReadFile(stats)
	if !strings.HasPrefix(string(csv), "label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz,volume_mm3,px,py,pz\n") {
		t.Fatalf("stats header: %s", strings.SplitN(string(csv), "\n", 2)[0])
	}
	// Labeling the written label volumes again gives the same components.
	for _, p := range []string{nii, nrrd} {
		r := runCLI(t, "", "volume", p, "-c", "6", "--json")
		var s job.VolumeSummary
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.Components != 540 {
			t.Fatalf("%s relabeled: %q %v", p, r.stdout, err)
		}
	}
	assertNoTempFiles(t, dir)
}

func TestVolumeBadInput(t *testing.T) {
	dir := t.TempDir()
	// A NIfTI-1 header whose dims multiply past the file, and one with an
	// unknown datatype; an NRRD without sizes; a truncated gzip.
	files := map[string][]byte{
		"lying.nii":     niftiHeader(1000, 1000, 1000, 2, 8, 352),
		"datatype.nii":  niftiHeader(2, 2, 2, 9999, 8, 352),
		"voxoffset.nii": niftiHeader(2, 2, 2, 2, 8, 100000),
		"nosizes.nrrd":  []byte("NRRD0004\ntype: uchar\ndimension: 3\nencoding: raw\n\n\x00"),
		"trunc.nii.gz":  {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3},
		"empty.nii":     nil,
		"unknown.xyz":   []byte("hello"),
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(dir, name)
			os.WriteFile(in, data, 0o644)
			out := filepath.Join(dir, name+".out.nii.gz")
			assertCleanFailure(t, runCLI(t, "", "volume", in, "-o", out), in)
			if _, err := os.Stat(out); err == nil {
				t.Fatal("output written for a bad input")
			}
		})
	}
	assertNoTempFiles(t, dir)
}

// niftiHeader builds a little-endian NIfTI-1 header (348 bytes + 4 of
// extension flag) for an x*y*z volume of the datatype.
func niftiHeader(x, y, z, datatype, bitpix int, voxOffset float32) []byte {
	h := make([]byte, 352)
	le := func(off int, v uint32) {
		h[off], h[off+1], h[off+2], h[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	le16 := func(off int, v int) { h[off], h[off+1] = byte(v), byte(v>>8) }
	le(0, 348)
	le16(40, 3)
	le16(42, x)
	le16(44, y)
	le16(46, z)
	le16(48, 1)
	le16(70, datatype)
	le16(72, bitpix)
	for i := range 4 {
		le(76+4*i, 0x3f800000) // pixdim 1.0
	}
	le(108, math.Float32bits(voxOffset))
	copy(h[344:], "n+1\x00")
	return h
}
