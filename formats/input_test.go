package formats

import (
	"bytes"
	"compress/gzip"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/npy"
)

// writeTestFile writes data to name in a temporary folder.
func writeTestFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// npyBytes is a uint8 .npy array of the given shape, all ones.
func npyBytes(t *testing.T, shape ...int) []byte {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	var buf bytes.Buffer
	if err := npy.WriteBytes(&buf, bytes.Repeat([]byte{1}, n), shape); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestKindOfAndNames(t *testing.T) {
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want Kind
	}{
		{writeTestFile(t, "a.png", pngBuf.Bytes()), KindImage},
		{writeTestFile(t, "a.npy", npyBytes(t, 2, 3)), KindImage},
		{writeTestFile(t, "v.npy", npyBytes(t, 2, 3, 4)), KindVolume},
		{writeTestFile(t, "v.nii.gz", []byte("not read")), KindVolume},
	} {
		if got, err := KindOf(c.path); err != nil || got != c.want {
			t.Errorf("KindOf(%s) = %v, %v; want %v", filepath.Base(c.path), got, err, c.want)
		}
	}
	if _, err := KindOf(writeTestFile(t, "bad.npy", []byte("nope"))); err == nil {
		t.Error("KindOf of a broken .npy gave no error")
	}
	for name, want := range map[string]bool{"A.NII.GZ": true, "b.nhdr": true, "c.tif": true, "d.webp": true, "e.img": false, "f.txt": false} {
		if IsInputName(name) != want {
			t.Errorf("IsInputName(%s) = %v", name, !want)
		}
	}
	for path, want := range map[string]string{"a.nii": ".nii.gz", "a.hdr.gz": ".nii.gz", "b.NHDR": ".nrrd", "c.tif": ".npy"} {
		if got := FamilyExt(path); got != want {
			t.Errorf("FamilyExt(%s) = %s, want %s", path, got, want)
		}
	}
}

func TestEstimateBytes(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(make([]byte, 1<<20))
	w.Close()
	if got := EstimateBytes(writeTestFile(t, "v.nii.gz", gz.Bytes())); got != 5<<20 {
		t.Errorf("gzip: %d, want %d (five times the trailer's size)", got, 5<<20)
	}
	if got := EstimateBytes(writeTestFile(t, "v.raw", make([]byte, 1000))); got != 5000 {
		t.Errorf("raw: %d", got)
	}
	if got := EstimateBytes(filepath.Join(t.TempDir(), "missing")); got != 0 {
		t.Errorf("missing file: %d", got)
	}
}

func TestReadImageFile(t *testing.T) {
	img, err := ReadImageFile(writeTestFile(t, "a.npy", npyBytes(t, 2, 3)), nil)
	if err != nil || img.Raster.Width != 3 || img.Raster.Height != 2 || img.Decoded != nil {
		t.Fatalf("2D .npy: %+v, %v", img, err)
	}
	if d := img.Display(); d.Bounds().Dx() != 3 || d.Bounds().Dy() != 2 {
		t.Errorf("display of an .npy: %v", d.Bounds())
	}
	if _, err := ReadImageFile(writeTestFile(t, "v.npy", npyBytes(t, 2, 3, 4)), nil); err == nil || !strings.Contains(err.Error(), "cclabel volume") {
		t.Errorf("3D .npy: %v", err)
	}
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 5, 4)))
	img, err = ReadImageFile("-", bytes.NewReader(pngBuf.Bytes()))
	if err != nil || img.Raster.Width != 5 || img.Decoded == nil || img.Display() != img.Decoded {
		t.Fatalf("stdin PNG: %v", err)
	}
}
