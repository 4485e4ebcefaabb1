package testkit

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// FuzzMaxPixels keeps decoded images and volumes small while fuzzing. Each
// input thus stays cheap; everything else is as in the public readers.
const FuzzMaxPixels = 1 << 16

// WantError checks that err is a one-line "formats: " error holding parts.
// The error must start with "formats: " and contain every one of parts.
func WantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "formats: ") || strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error %q is not one line starting with \"formats: \"", msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not contain %q", msg, p)
		}
	}
}

// WantErrorPrefix checks that err is one line starting with prefix. It must
// also hold every one of parts.
func WantErrorPrefix(t *testing.T, err error, prefix string, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) || strings.ContainsAny(msg, "\r\n") {
		t.Errorf("error %q is not one line starting with %q", msg, prefix)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not contain %q", msg, p)
		}
	}
}

// Labeled is an input as read and labeled for [CheckExpected]. It holds its
// shape (X, Y, Z), its labels and their component count.
type Labeled struct {
	Shape  [3]int
	Labels []uint32
	Count  int
}

// CheckExpected labels every case whose file is present and checks it. label
// labels the file at path, as the case's mode and connectivity say;
// CheckExpected checks its shape, component count and label hash against the
// case and returns how many cases it checked.
func CheckExpected(t *testing.T, cases []Case, label func(path string, c Case) (Labeled, error)) int {
	t.Helper()
	checked := 0
	for _, c := range cases {
		path := filepath.Join(Dir(t), c.File)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s absent", c.File)
			continue
		}
		l, err := label(path, c)
		if err != nil {
			t.Errorf("%s: %v", c.File, err)
			continue
		}
		if len(c.Shape) != 3 || l.Shape != [3]int{c.Shape[0], c.Shape[1], c.Shape[2]} {
			t.Errorf("%s: shape %dx%dx%d, want %v", c.File, l.Shape[0], l.Shape[1], l.Shape[2], c.Shape)
			continue
		}
		if got := LabelsSHA256(l.Labels); l.Count != c.Components || got != c.SHA256 {
			t.Errorf("%s %s %d-connected: %d components (sha256 %.12s), want %d (%.12s)",
				c.File, c.Mode, c.Connectivity, l.Count, got, c.Components, c.SHA256)
		}
		checked++
	}
	return checked
}

// CheckGeometry checks the geometry of a volume a fuzzed reader accepted. The
// spacing must be finite and positive, and the affine finite.
func CheckGeometry(t *testing.T, spacing [3]float64, affine [3][4]float64) {
	t.Helper()
	for i, s := range spacing {
		if !(s > 0) || math.IsInf(s, 0) {
			t.Fatalf("spacing %v", spacing)
		}
		for _, a := range affine[i] {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				t.Fatalf("affine %v", affine)
			}
		}
	}
}

// LabelVolume returns a labeling for [CheckExpected]: it reads the volume at
// a path with read and labels its one frame on the CPU as the case says.
func LabelVolume(read func(path string) (*imagegraph.Volume, error)) func(string, Case) (Labeled, error) {
	return func(path string, c Case) (Labeled, error) {
		v, err := read(path)
		if err != nil {
			return Labeled{}, err
		}
		if len(v.Frames) != 1 {
			return Labeled{}, fmt.Errorf("%d frames, want 1", len(v.Frames))
		}
		r := v.Frames[0]
		rule, err := imagegraph.ParseRule(c.Mode)
		if err != nil {
			return Labeled{}, err
		}
		l, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: c.Connectivity}, nil)
		if err != nil {
			return Labeled{}, err
		}
		return Labeled{Shape: [3]int{r.Width, r.Height, r.Depth}, Labels: l.Data, Count: l.Count}, nil
	}
}
