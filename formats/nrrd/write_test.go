package nrrd

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

// nrrdReadLabelsBack reads a written label file and returns the volume, its
// header and its labels as uint32.
func nrrdReadLabelsBack(t *testing.T, path string) (*imagegraph.Volume, *Header, [][]uint32) {
	t.Helper()
	v, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]uint32
	for _, r := range v.Frames {
		l := make([]uint32, r.Len())
		for i := range l {
			l[i] = uint32(r.Value(i))
		}
		frames = append(frames, l)
	}
	return v, v.Header.(*Header), frames
}

func TestWriteNRRDLabelsRoundTrip(t *testing.T) {
	path := filepath.Join(testkit.Dir(t), "volumes/pyradiomics_brain1_label.nrrd")
	if _, err := os.Stat(path); err != nil {
		t.Skip("shared data absent")
	}
	ref, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := imagegraph.Label(ref.Frames[0], imagegraph.Rule{Mode: imagegraph.Multilabel}, imagegraph.Options{Connectivity: 26}, nil)
	if err != nil {
		t.Fatal(err)
	}
	refHeader := ref.Header.(*Header)
	for _, c := range []struct {
		dtype string
		kind  imagegraph.SampleKind
		typ   string
	}{{"auto", imagegraph.Uint16, "unsigned short"}, {"uint16", imagegraph.Uint16, "unsigned short"}, {"uint32", imagegraph.Uint32, "unsigned int"}} {
		out := filepath.Join(t.TempDir(), "labels.nrrd")
		if err := WriteLabels(out, ref, [][]uint32{l.Data}, c.dtype); err != nil {
			t.Fatal(err)
		}
		v, h, frames := nrrdReadLabelsBack(t, out)
		r := v.Frames[0]
		if r.Kind != c.kind || h.Type != c.typ || h.Encoding != "gzip" || h.Endian != "little" {
			t.Errorf("%s: kind %v type %q encoding %q endian %q", c.dtype, r.Kind, h.Type, h.Encoding, h.Endian)
		}
		if v.Affine != ref.Affine || v.Spacing != ref.Spacing || h.Space != refHeader.Space ||
			!slices.Equal(h.Sizes, refHeader.Sizes) || !slices.Equal(h.Kinds, refHeader.Kinds) {
			t.Errorf("%s: geometry %v %v %q %v %v, want %v %v %q %v %v", c.dtype, v.Affine, v.Spacing, h.Space, h.Sizes, h.Kinds,
				ref.Affine, ref.Spacing, refHeader.Space, refHeader.Sizes, refHeader.Kinds)
		}
		if !slices.Equal(frames[0], l.Data) {
			t.Errorf("%s: labels differ", c.dtype)
		}
	}
}

// nrrdLabelRef returns a 3x2x2 volume of the given format and geometry.
func nrrdLabelRef(format string, spacing [3]float64, affine [3][4]float64, frames int) *imagegraph.Volume {
	geo := imagegraph.Geometry{Spacing: spacing, Affine: affine}
	if strings.HasPrefix(format, "nifti") {
		geo.Space = "right-anterior-superior" // as the NIfTI reader gives it
	}
	v := &imagegraph.Volume{Slope: 1, Geometry: geo, Format: format}
	for range frames {
		v.Frames = append(v.Frames, &imagegraph.Raster{Width: 3, Height: 2, Depth: 2, Kind: imagegraph.Uint8, Data: make([]uint8, 12)})
	}
	return v
}

// nrrdLabelFrames returns frames of 12 labels, the largest being top.
func nrrdLabelFrames(frames int, top uint32) [][]uint32 {
	var out [][]uint32
	for f := range frames {
		l := make([]uint32, 12)
		for i := range l {
			l[i] = uint32(i*f) % 5
		}
		l[11] = top
		out = append(out, l)
	}
	return out
}

func TestWriteNRRDLabelsGeometry(t *testing.T) {
	dir := t.TempDir()
	oblique := [3][4]float64{{0, -2, 0, 10}, {1.5, 0, 0, -3.25}, {0, 0, 0.5, 7}}
	cases := []struct {
		name   string
		ref    *imagegraph.Volume
		frames int
		top    uint32
		want   []string // header lines
		kind   imagegraph.SampleKind
	}{
		{"raw spacing", nrrdLabelRef("raw", [3]float64{1, 2, 3}, imagegraph.IdentityAffine([3]float64{1, 2, 3}), 1), 1, 65535,
			[]string{"type: ushort", "dimension: 3", "sizes: 3 2 2", "spacings: 1 2 3", "kinds: domain domain domain"}, imagegraph.Uint16},
		{"nifti", nrrdLabelRef("nifti1", [3]float64{1.5, 2, 0.5}, oblique, 1), 1, 65536,
			[]string{"type: uint", "space: right-anterior-superior", "space directions: (0,1.5,0) (-2,0,0) (0,0,0.5)",
				"space origin: (10,-3.25,7)"}, imagegraph.Uint32},
		{"nifti frames", nrrdLabelRef("nifti2", [3]float64{1.5, 2, 0.5}, oblique, 2), 2, 3,
			[]string{"dimension: 4", "sizes: 3 2 2 2", "space directions: (0,1.5,0) (-2,0,0) (0,0,0.5) none",
				"kinds: domain domain domain list"}, imagegraph.Uint16},
		{"tiff frames", nrrdLabelRef("tiff", [3]float64{1, 1, 1}, imagegraph.IdentityAffine([3]float64{1, 1, 1}), 1), 3, 3,
			[]string{"dimension: 4", "spacings: 1 1 1 nan", "kinds: domain domain domain list"}, imagegraph.Uint16},
		{"oblique npy", nrrdLabelRef("npy", [3]float64{1.5, 2, 0.5}, oblique, 1), 1, 3,
			[]string{"space dimension: 3", "space directions: (0,1.5,0) (-2,0,0) (0,0,0.5)"}, imagegraph.Uint16},
	}
	for _, c := range cases {
		out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".nrrd")
		labels := nrrdLabelFrames(c.frames, c.top)
		if err := WriteLabels(out, c.ref, labels, "auto"); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		raw, _ := os.ReadFile(out)
		header := string(raw[:strings.Index(string(raw), "\n\n")])
		for _, line := range c.want {
			if !slices.Contains(strings.Split(header, "\n"), line) {
				t.Errorf("%s: header lacks %q:\n%s", c.name, line, header)
			}
		}
		v, _, frames := nrrdReadLabelsBack(t, out)
		if v.Frames[0].Kind != c.kind || !slices.EqualFunc(frames, labels, slices.Equal) {
			t.Errorf("%s: kind %v, labels %v, want %v", c.name, v.Frames[0].Kind, frames, labels)
		}
		if v.Affine != c.ref.Affine || v.Spacing != c.ref.Spacing {
			t.Errorf("%s: affine %v spacing %v, want %v %v", c.name, v.Affine, v.Spacing, c.ref.Affine, c.ref.Spacing)
		}
	}
}

func TestWriteNRRDLabelsFromNRRD(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 24)
	header := "type: uchar\ndimension: 4\nsizes: 3 2 2 2\nencoding: raw\nspace: LPS\n" +
		"space directions: (1,0,0) (0,-1,0) (0,0,2.5) none\nspace origin: (1,2,3)\nkinds: space space space time\n" +
		"centers: cell cell cell ???\nspace units: \"mm\" \"mm\" \"mm\"\nmodality:=DWMRI\n"
	src := filepath.Join(dir, "src.nrrd")
	if err := os.WriteFile(src, nrrdAttached(header, data), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, err := ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		frames     int
		want, lack []string
	}{
		{2, []string{"dimension: 4", "space: left-posterior-superior", "space directions: (1,0,0) (0,-1,0) (0,0,2.5) none",
			"kinds: space space space time", "centers: cell cell cell ???", "space units: \"mm\" \"mm\" \"mm\"", "space origin: (1,2,3)"},
			[]string{"modality"}},
		{1, []string{"dimension: 3", "sizes: 3 2 2", "space directions: (1,0,0) (0,-1,0) (0,0,2.5)", "kinds: space space space",
			"space units: \"mm\" \"mm\" \"mm\""}, []string{"centers", "modality"}},
	} {
		out := filepath.Join(dir, "out.nrrd")
		labels := nrrdLabelFrames(c.frames, 9)
		if err := WriteLabels(out, ref, labels, "auto"); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(out)
		head := string(raw[:strings.Index(string(raw), "\n\n")])
		lines := strings.Split(head, "\n")
		for _, w := range c.want {
			if !slices.Contains(lines, w) {
				t.Errorf("%d frames: header lacks %q:\n%s", c.frames, w, head)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(head, l) {
				t.Errorf("%d frames: header has %q:\n%s", c.frames, l, head)
			}
		}
		v, _, frames := nrrdReadLabelsBack(t, out)
		if v.Affine != ref.Affine || !slices.EqualFunc(frames, labels, slices.Equal) {
			t.Errorf("%d frames: affine %v, labels %v", c.frames, v.Affine, frames)
		}
	}
	// A 2-D reference gives a 2-D file.
	src2 := filepath.Join(dir, "src2.nrrd")
	os.WriteFile(src2, nrrdAttached("type: uchar\ndimension: 2\nsizes: 3 4\nencoding: raw\nspacings: 0.5 0.25\n", data[:12]), 0o644)
	ref2, err := ReadFile(src2)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out2.nrrd")
	if err := WriteLabels(out, ref2, [][]uint32{make([]uint32, 12)}, "uint32"); err != nil {
		t.Fatal(err)
	}
	v, h, _ := nrrdReadLabelsBack(t, out)
	if h.Dimension != 2 || v.Spacing != ref2.Spacing || v.Frames[0].Depth != 1 {
		t.Errorf("2-D: dimension %d spacing %v", h.Dimension, v.Spacing)
	}
}

func TestWriteNRRDLabelsErrors(t *testing.T) {
	dir := t.TempDir()
	ref := nrrdLabelRef("raw", [3]float64{1, 1, 1}, imagegraph.IdentityAffine([3]float64{1, 1, 1}), 1)
	out := filepath.Join(dir, "out.nrrd")
	cases := []struct {
		name   string
		ref    *imagegraph.Volume
		labels [][]uint32
		dtype  string
		parts  []string
	}{
		{"too big", ref, nrrdLabelFrames(1, 70000), "uint16", []string{"label 70000 does not fit uint16"}},
		{"dtype", ref, nrrdLabelFrames(1, 1), "int8", []string{"unsupported label dtype \"int8\""}},
		{"length", ref, [][]uint32{make([]uint32, 11)}, "auto", []string{"label frame 0 has 11 labels", "has 12 voxels"}},
		{"no frames", ref, nil, "auto", []string{"no label frames"}},
		{"no ref", &imagegraph.Volume{}, nrrdLabelFrames(1, 1), "auto", []string{"no frames"}},
	}
	for _, c := range cases {
		err := WriteLabels(out, c.ref, c.labels, c.dtype)
		testkit.WantError(t, err, append([]string{out + ": nrrd: "}, c.parts...)...)
	}
	nrrdRef, err := readNRRDBytes(nrrdAttached(nrrdInt16Header("raw", ""), make([]byte, 48)))
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]uint32, 24)
	err = WriteLabels(out, nrrdRef, [][]uint32{frame, frame}, "auto")
	testkit.WantError(t, err, "nrrd: 2 label frames for a reference of 1")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed writes left %v", entries)
	}
	err = WriteLabels(filepath.Join(dir, "no", "such", "out.nrrd"), ref, nrrdLabelFrames(1, 1), "auto")
	testkit.WantError(t, err, "no such file")
}

func TestWriteNRRDLabelsLittleEndianData(t *testing.T) {
	ref := nrrdLabelRef("raw", [3]float64{1, 1, 1}, imagegraph.IdentityAffine([3]float64{1, 1, 1}), 1)
	out := filepath.Join(t.TempDir(), "l.nrrd")
	labels := nrrdLabelFrames(1, 300)
	if err := WriteLabels(out, ref, labels, "auto"); err != nil {
		t.Fatal(err)
	}
	v, h, _ := nrrdReadLabelsBack(t, out)
	got := v.Frames[0].Data.([]uint16)
	if h.Endian != "little" || got[11] != 300 {
		t.Errorf("endian %q, last label %d", h.Endian, got[11])
	}
	// The samples after the gzip header decompress to 300 as 0x2c 0x01.
	raw, _ := os.ReadFile(out)
	body := raw[strings.Index(string(raw), "\n\n")+2:]
	plain, err := nrrdGunzip(body)
	if err != nil || len(plain) != 24 || binary.LittleEndian.Uint16(plain[22:]) != 300 {
		t.Errorf("data %v, %v", plain, err)
	}
}

// nrrdGunzip decompresses gzip data.
func nrrdGunzip(data []byte) ([]byte, error) {
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}
