package nifti

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

// TestNIfTISharedFiles reads every real NIfTI file, checks the facts
// known about each, and labels the expected.json cases.
func TestNIfTISharedFiles(t *testing.T) {
	cases := testkit.Cases(t, func(c testkit.Case) bool {
		return strings.HasSuffix(c.File, ".nii") || strings.HasSuffix(c.File, ".nii.gz")
	})
	files, _ := filepath.Glob(filepath.Join(testkit.Dir(t), "volumes", "*.nii*"))
	if len(files) == 0 {
		t.Skip("no NIfTI files in the shared data")
	}
	shapes := map[string][]int{}
	for _, c := range cases {
		shapes[filepath.Base(c.File)] = c.Shape
	}
	volumes := map[string]*imagegraph.Volume{}
	for _, path := range files {
		name := filepath.Base(path)
		v, err := ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		volumes[name] = v
		f := v.Frames[0]
		shape := []int{f.Width, f.Height, f.Depth}
		if len(v.Frames) > 1 {
			shape = append(shape, len(v.Frames))
		}
		if want, ok := shapes[name]; ok && !equalInts(shape, want) {
			t.Errorf("%s: shape %v, want %v", name, shape, want)
		}
		h := v.Header.(*Header)
		switch {
		case name == "nibabel_anatomical.nii" && !h.BigEndian:
			t.Errorf("%s is not read as big-endian", name)
		case name == "nibabel_example4d.nii.gz" && len(v.Frames) != 2:
			t.Errorf("%s: %d frames, want 2", name, len(v.Frames))
		case name == "niivue_JulichBrainAtlas31_LH.nii.gz" && !strings.HasPrefix(string(h.Extensions), "1 Area 3b (PostCG)\n"):
			t.Errorf("%s: extension region %.40q", name, h.Extensions)
		case strings.HasPrefix(name, "neuroparc_") && (h.SformCode <= 0 || v.Affine != h.SformAffine()):
			t.Errorf("%s: sform_code %d, affine %v", name, h.SformCode, v.Affine)
		case strings.HasPrefix(name, "neuroparc_") && !strings.Contains(name, "brainmask") && f.Kind != imagegraph.Float32:
			t.Errorf("%s: kind %v, want float32", name, f.Kind)
		}
	}
	// Affines as nibabel 5.0 gives them (img.affine).
	for name, want := range map[string][3][4]float64{
		"neuroparc_AAL_1mm.nii.gz":    {{-1, 0, 0, 90}, {0, 1, 0, -126}, {0, 0, 1, -72}},
		"nibabel_anatomical.nii":      {{-2, 0, 0, 32}, {0, 2, 0, -40}, {0, 0, 2, -16}},
		"totalseg_example_seg.nii.gz": {{3, 0, 0, -177.95632934570312}, {0, 3, 0, 11.319000244140625}, {0, 0, 3, 94.3017578125}},
		"nibabel_example4d.nii.gz": {
			{-2.0000000000000000e+00, 6.7147156535937462e-19, 9.0810245110817154e-18, 1.1785510253906250e+02},
			{-6.7147156535937462e-19, 1.9737114906311035e+00, -3.5552823543548584e-01, -3.5722942352294922e+01},
			{8.2554808889609302e-18, 3.2320761680603027e-01, 2.1710817813873291e+00, -7.2487983703613281e+00}},
	} {
		if v := volumes[name]; v != nil && v.Affine != want {
			t.Errorf("%s: affine %v, want %v", name, v.Affine, want)
		}
	}
	if v := volumes["nibabel_example4d.nii.gz"]; v != nil {
		// nibabel: header.get_qform().
		want := [3][4]float64{
			{-1.9999999959781869e+00, 1.0282396754185892e-05, 1.3905980362440367e-04, 1.1785510253906250e+02},
			{-1.0282396754185892e-05, 1.9737114380364735e+00, -3.5552822475243973e-01, -3.5722942352294922e+01},
			{1.2641805535562603e-04, 3.2320761014906196e-01, 2.1710816833341227e+00, -7.2487983703613281e+00}}
		if got := v.Header.(*Header).QformAffine(); !niftiSameAffine(got, want, 1e-12) {
			t.Errorf("example4d qform %v, want %v", got, want)
		}
	}
	labeled := 0
	defer func() {
		if labeled < 13 {
			t.Errorf("only %d of the expected.json NIfTI cases labeled", labeled)
		}
	}()
	for _, c := range cases {
		v := volumes[filepath.Base(c.File)]
		if v == nil {
			continue
		}
		labeled++
		labels, counts := niftiLabelAll(t, v, c.Mode, c.Connectivity)
		total := 0
		for _, n := range counts {
			total += n
		}
		if total != c.Components || testkit.LabelsSHA256(labels) != c.SHA256 {
			t.Errorf("%s %s/%d: %d components (per frame %v), want %d; hash match %v", c.File, c.Mode, c.Connectivity, total, counts, c.Components, testkit.LabelsSHA256(labels) == c.SHA256)
		}
	}
}

// equalInts reports whether two int slices are equal.
func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNIfTIGeometryRoundTrip labels a real atlas, writes the labels with
// its geometry and reads them back.
func TestNIfTIGeometryRoundTrip(t *testing.T) {
	path := filepath.Join(testkit.Dir(t), "volumes", "neuroparc_AAL_1mm.nii.gz")
	src, err := ReadFile(path)
	if err != nil {
		if _, statErr := os.Stat(path); statErr != nil {
			t.Skipf("shared data absent: %v", statErr)
		}
		t.Fatal(err)
	}
	labels, counts := niftiLabelAll(t, src, "multilabel", 6)
	dir := t.TempDir()
	for _, c := range []struct {
		name, dtype string
		want        int16
	}{{"l.nii.gz", "auto", 512}, {"l32.nii", "uint32", 768}, {"l16.nii", "uint16", 512}} {
		out := filepath.Join(dir, c.name)
		if err := WriteLabels(out, src, [][]uint32{labels}, c.dtype); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		sh, gh := src.Header.(*Header), got.Header.(*Header)
		if got.Affine != src.Affine || got.Spacing != src.Spacing || got.Format != src.Format {
			t.Errorf("%s: affine %v spacing %v format %s, want %v %v %s", c.name, got.Affine, got.Spacing, got.Format, src.Affine, src.Spacing, src.Format)
		}
		if gh.SformCode != sh.SformCode || gh.QformCode != sh.QformCode || gh.Dim != sh.Dim || gh.Pixdim != sh.Pixdim || gh.XYZTUnits != sh.XYZTUnits {
			t.Errorf("%s: header %+v, source %+v", c.name, gh, sh)
		}
		if gh.QformAffine() != sh.QformAffine() || gh.SformAffine() != sh.SformAffine() {
			t.Errorf("%s: qform or sform changed", c.name)
		}
		if gh.Datatype != c.want || gh.Descrip != "cclabel labels" || gh.CalMax != float64(counts[0]) || gh.SclSlope != 1 {
			t.Errorf("%s: datatype %d descrip %q cal_max %g slope %g", c.name, gh.Datatype, gh.Descrip, gh.CalMax, gh.SclSlope)
		}
		back := make([]uint32, len(labels))
		for i := range back {
			back[i] = uint32(got.Frames[0].Value(i))
		}
		if testkit.LabelsSHA256(back) != testkit.LabelsSHA256(labels) {
			t.Errorf("%s: labels changed", c.name)
		}
	}
}
