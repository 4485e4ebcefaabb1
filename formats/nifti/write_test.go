package nifti

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// niftiLabelsOf returns deterministic labels for a volume of n voxels.
func niftiLabelsOf(n int, maxLabel uint32) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(i*7919) % (maxLabel + 1)
	}
	out[n-1] = maxLabel
	return out
}

// niftiReadBack reads a written file and returns its labels per frame.
func niftiReadBack(t *testing.T, path string) (*imagegraph.Volume, *Header, [][]uint32) {
	t.Helper()
	v, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]uint32
	for _, f := range v.Frames {
		l := make([]uint32, f.Len())
		for i := range l {
			l[i] = uint32(f.Value(i))
		}
		frames = append(frames, l)
	}
	return v, v.Header.(*Header), frames
}

// TestNIfTIWriteFromNIfTI writes labels with the geometry of synthetic
// NIfTI volumes of both versions, byte orders and 2 to 4 dimensions.
func TestNIfTIWriteFromNIfTI(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		spec    niftiSpec
		frames  int
		maxL    uint32
		dtype   string
		wantDim int64
		wantDT  int16
	}{
		{"v1-3d.nii.gz", niftiSpec{version: 1, datatype: 16, dims: []int{5, 4, 3}, ext: make([]byte, 32), extender: true}, 1, 300, "auto", 3, 512},
		{"v2-be-4d.nii", niftiSpec{version: 2, bigEndian: true, datatype: 4, dims: []int{5, 4, 3, 2}}, 2, 70000, "auto", 4, 768},
		{"v1-4d-one.nii", niftiSpec{version: 1, datatype: 2, dims: []int{5, 4, 3, 2}}, 1, 9, "uint32", 3, 768},
		{"v1-2d.nii.gz", niftiSpec{version: 1, datatype: 512, dims: []int{6, 5}}, 1, 65535, "uint16", 2, 512},
		{"v2-2d-frames.nii", niftiSpec{version: 2, datatype: 512, dims: []int{6, 5}}, 3, 2, "auto", 4, 512},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.spec.slope, c.spec.inter = 2, 1
			data, _, _ := niftiBuild(t, c.spec)
			ref, err := Read(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			n := ref.Frames[0].Len()
			labels := make([][]uint32, c.frames)
			for f := range labels {
				labels[f] = niftiLabelsOf(n, c.maxL-uint32(f))
			}
			path := filepath.Join(dir, c.name)
			if err := WriteLabels(path, ref, labels, c.dtype); err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(path)
			if gz := raw[0] == 0x1f && raw[1] == 0x8b; gz != (filepath.Ext(c.name) == ".gz") {
				t.Errorf("gzip %v for %s", gz, c.name)
			}
			v, h, got := niftiReadBack(t, path)
			if !reflect.DeepEqual(got, labels) {
				t.Fatal("labels differ")
			}
			src := ref.Header.(*Header)
			if h.Version != src.Version || h.BigEndian || h.Dim[0] != c.wantDim || h.Datatype != c.wantDT {
				t.Errorf("version %d big %v dim %v datatype %d", h.Version, h.BigEndian, h.Dim, h.Datatype)
			}
			if h.VoxOffset != h.headerSize()+4 || h.Extensions != nil || h.Extender != [4]byte{} {
				t.Errorf("vox_offset %d, extensions %d bytes", h.VoxOffset, len(h.Extensions))
			}
			if v.Slope != 1 || v.Inter != 0 || h.IntentCode != 0 || h.IntentName != "" || h.AuxFile != "" || h.CalMax != float64(c.maxL) {
				t.Errorf("slope %g inter %g intent %d %q aux %q cal_max %g", v.Slope, v.Inter, h.IntentCode, h.IntentName, h.AuxFile, h.CalMax)
			}
			if v.Affine != ref.Affine || v.Spacing != ref.Spacing || h.Pixdim != src.Pixdim || h.XYZTUnits != src.XYZTUnits ||
				h.QformAffine() != src.QformAffine() || h.QformCode != src.QformCode || h.SformCode != src.SformCode ||
				h.SliceDuration != src.SliceDuration || h.DimInfo != src.DimInfo {
				t.Errorf("geometry changed:\n got %+v\nwant %+v", h, src)
			}
		})
	}
}

// TestNIfTIWriteFromOtherFormats builds headers from a volume's affine.
func TestNIfTIWriteFromOtherFormats(t *testing.T) {
	dir := t.TempDir()
	raster := &imagegraph.Raster{Width: 4, Height: 3, Depth: 2, Kind: imagegraph.Uint8, Data: make([]uint8, 24)}
	labels := [][]uint32{niftiLabelsOf(24, 5)}
	c, s := math.Cos(0.4), math.Sin(0.4)
	for _, tc := range []struct {
		name      string
		affine    [3][4]float64
		format    string
		wantQform int32
		want      [3][4]float64
	}{
		{"rotated", [3][4]float64{{0.5 * c, -2 * s, 0, 10}, {0.5 * s, 2 * c, 0, -20}, {0, 0, 3, 5}}, "nrrd", 1, [3][4]float64{}},
		{"reflected", [3][4]float64{{-0.5, 0, 0, 10}, {0, -2, 0, -20}, {0, 0, -3, 5}}, "tiff", 1, [3][4]float64{}},
		{"sheared", [3][4]float64{{0.5, 1, 0, 10}, {0, 2, 0, -20}, {0, 0, 3, 5}}, "nrrd", 0, [3][4]float64{}},
		{"zero", [3][4]float64{}, "npy", 1, [3][4]float64{{0.5, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 3, 0}}},
	} {
		geo := imagegraph.Geometry{Spacing: [3]float64{0.5, 2, 3}, Affine: tc.affine}
		if tc.format == "nrrd" {
			geo.Units = "mm" // as the NRRD reader gives it
		}
		ref := &imagegraph.Volume{Frames: []*imagegraph.Raster{raster}, Slope: 1, Geometry: geo, Format: tc.format}
		if tc.want == ([3][4]float64{}) {
			tc.want = tc.affine
		}
		path := filepath.Join(dir, tc.name+".nii")
		if err := WriteLabels(path, ref, labels, "auto"); err != nil {
			t.Fatal(err)
		}
		v, h, got := niftiReadBack(t, path)
		if !reflect.DeepEqual(got, labels) {
			t.Fatalf("%s: labels differ", tc.name)
		}
		if h.Version != 1 || h.SformCode != 1 || h.QformCode != tc.wantQform || h.Dim[0] != 3 {
			t.Errorf("%s: version %d sform %d qform %d dim %v", tc.name, h.Version, h.SformCode, h.QformCode, h.Dim)
		}
		if !niftiSameAffine(v.Affine, tc.want, 1e-5) {
			t.Errorf("%s: affine %v, want %v", tc.name, v.Affine, tc.want)
		}
		if tc.wantQform == 1 && !niftiSameAffine(h.QformAffine(), tc.want, 1e-5) {
			t.Errorf("%s: qform %v, want %v", tc.name, h.QformAffine(), tc.want)
		}
		if wantUnits := map[bool]int32{true: 2, false: 0}[tc.format == "nrrd"]; h.XYZTUnits != wantUnits {
			t.Errorf("%s: xyzt_units %d", tc.name, h.XYZTUnits)
		}
		if !niftiSameAffine([3][4]float64{{v.Spacing[0], v.Spacing[1], v.Spacing[2]}}, [3][4]float64{{0.5, 2, 3}}, 1e-6) {
			t.Errorf("%s: spacing %v", tc.name, v.Spacing)
		}
	}
	// An affine in LPS or LAS (as NRRD gives them) is flipped to RAS.
	lps := [3][4]float64{{0.5, 0, 0, 10}, {0, 2, 0, -20}, {0, 0, 3, 5}}
	for space, want := range map[string][3][4]float64{
		"left-posterior-superior": {{-0.5, 0, 0, -10}, {0, -2, 0, 20}, {0, 0, 3, 5}},
		"left-anterior-superior":  {{-0.5, 0, 0, -10}, {0, 2, 0, -20}, {0, 0, 3, 5}},
		"right-anterior-superior": lps,
		"scanner-xyz":             lps,
	} {
		ref := &imagegraph.Volume{Frames: []*imagegraph.Raster{raster}, Format: "nrrd",
			Geometry: imagegraph.Geometry{Spacing: [3]float64{0.5, 2, 3}, Affine: lps, Space: space, Units: "mm"}}
		path := filepath.Join(dir, "nrrd.nii")
		if err := WriteLabels(path, ref, labels, "auto"); err != nil {
			t.Fatal(err)
		}
		if v, _, _ := niftiReadBack(t, path); !niftiSameAffine(v.Affine, want, 1e-6) {
			t.Errorf("NRRD space %s: affine %v, want %v", space, v.Affine, want)
		}
	}
	// A plane of another format is written 2D; a side over 32767 needs
	// NIfTI-2.
	wide := &imagegraph.Raster{Width: 40000, Height: 1, Depth: 1, Kind: imagegraph.Uint8, Data: make([]uint8, 40000)}
	ref := imagegraph.NewVolume(wide, "")
	path := filepath.Join(dir, "wide.nii.gz")
	if err := WriteLabels(path, ref, [][]uint32{niftiLabelsOf(40000, 3)}, "auto"); err != nil {
		t.Fatal(err)
	}
	if _, h, _ := niftiReadBack(t, path); h.Version != 2 || h.Dim[0] != 2 || h.Dim[1] != 40000 {
		t.Errorf("wide: version %d dim %v", h.Version, h.Dim)
	}
}

// TestNIfTIWriteErrors checks that bad arguments fail before anything is
// written and leave an existing file alone.
func TestNIfTIWriteErrors(t *testing.T) {
	dir := t.TempDir()
	raster := &imagegraph.Raster{Width: 4, Height: 3, Depth: 2, Kind: imagegraph.Uint8, Data: make([]uint8, 24)}
	ref := imagegraph.NewVolume(raster, "")
	good := [][]uint32{niftiLabelsOf(24, 3)}
	big := [][]uint32{niftiLabelsOf(24, 70000)}
	existing := filepath.Join(dir, "old.nii")
	writeNIfTITestFile(t, existing, []byte("old"))
	for _, c := range []struct {
		path   string
		ref    *imagegraph.Volume
		labels [][]uint32
		dtype  string
		want   string
	}{
		{existing, ref, big, "uint16", "label 70000 does not fit uint16"},
		{existing, ref, good, "int32", `unsupported label dtype "int32"`},
		{existing, ref, [][]uint32{make([]uint32, 23)}, "auto", "label frame 0 has 23 labels, the 4x3x2 volume has 24 voxels"},
		{existing, ref, nil, "auto", "no label frames"},
		{existing, nil, good, "auto", "the reference volume has no frames"},
		{existing, &imagegraph.Volume{}, good, "auto", "the reference volume has no frames"},
		{filepath.Join(dir, "x.hdr"), ref, good, "auto", "pairs is not supported"},
		{filepath.Join(dir, "no", "such", "x.nii"), ref, good, "auto", "no/such"},
	} {
		err := WriteLabels(c.path, c.ref, c.labels, c.dtype)
		niftiWantError(t, err, "formats: "+c.path+": nifti: ", c.want)
	}
	if got, _ := os.ReadFile(existing); string(got) != "old" {
		t.Errorf("existing file changed to %q", got)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"old.nii"}) {
		t.Errorf("folder holds %v", names)
	}
}
