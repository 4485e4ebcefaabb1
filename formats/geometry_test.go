package formats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeometryAcrossFormats checks that the geometry a reader gives
// carries a volume's world from one format to another: an NRRD in
// left-posterior-superior millimetres becomes a NIfTI in RAS+ (x and y
// negated, xyzt_units millimetres), and that NIfTI becomes an NRRD in
// right-anterior-superior space (the flip leaves negative zeros).
func TestGeometryAcrossFormats(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "lps.nrrd")
	header := "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 2 2 1\nspace: left-posterior-superior\n" +
		"space directions: (0.5,0,0) (0,2,0) (0,0,3)\nspace origin: (10,-20,5)\nendian: little\nencoding: raw\n\n"
	if err := os.WriteFile(src, append([]byte(header), 1, 0, 0, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := ReadVolumeFile(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Space != "left-posterior-superior" || v.Units != "mm" || v.Spacing != [3]float64{0.5, 2, 3} {
		t.Fatalf("NRRD geometry: space %q units %q spacing %v", v.Space, v.Units, v.Spacing)
	}
	labels := [][]uint32{{1, 0, 0, 2}}
	nii := filepath.Join(dir, "ras.nii")
	if err := WriteVolumeLabels(nii, v, labels, "uint16"); err != nil {
		t.Fatal(err)
	}
	w, err := ReadVolumeFile(nii, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [3][4]float64{{-0.5, 0, 0, -10}, {0, -2, 0, 20}, {0, 0, 3, 5}}
	if w.Affine != want || w.Space != "right-anterior-superior" || w.Units != "mm" {
		t.Errorf("NIfTI from NRRD: affine %v space %q units %q; want %v RAS+ mm", w.Affine, w.Space, w.Units, want)
	}
	back := filepath.Join(dir, "back.nrrd")
	if err := WriteVolumeLabels(back, w, labels, "uint16"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(back)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nspace: right-anterior-superior\nspace directions: (-0.5,-0,0) (-0,-2,0) (-0,-0,3)\n") {
		t.Errorf("NRRD from NIfTI:\n%s", data[:strings.Index(string(data), "\n\n")])
	}
}
