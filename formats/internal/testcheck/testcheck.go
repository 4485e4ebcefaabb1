// Package testcheck holds the checks that the tests of several format
// packages share: error messages, volumes accepted by fuzzed readers, and
// volumes read from the shared data against expected.json.
package testcheck

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
	"github.com/cclabel/cclabel/internal/shareddata"
)

// FuzzMaxPixels keeps decoded images and volumes small while fuzzing, so
// that each input stays cheap; everything else is as in the public
// readers.
const FuzzMaxPixels = 1 << 16

// WantError checks that err is a one-line error starting with "formats: "
// that contains every one of parts.
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

// WantErrorPrefix checks that err is one line starting with prefix and
// holding every one of parts.
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

// CheckExpected reads every case with read and checks its shape
// ([X, Y, Z]), component count and label hash; it returns how many cases
// it checked.
func CheckExpected(t *testing.T, cases []shareddata.Case, read func(path string) (*imagegraph.Volume, error)) int {
	t.Helper()
	checked := 0
	for _, c := range cases {
		path := filepath.Join(shareddata.Dir(t), c.File)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s absent", c.File)
			continue
		}
		v, err := read(path)
		if err != nil {
			t.Errorf("%s: %v", c.File, err)
			continue
		}
		if len(v.Frames) != 1 {
			t.Errorf("%s: %d frames, want 1", c.File, len(v.Frames))
			continue
		}
		r := v.Frames[0]
		if len(c.Shape) != 3 || r.Width != c.Shape[0] || r.Height != c.Shape[1] || r.Depth != c.Shape[2] {
			t.Errorf("%s: shape %dx%dx%d, want %v", c.File, r.Width, r.Height, r.Depth, c.Shape)
			continue
		}
		rule, err := imagegraph.ParseRule(c.Mode)
		if err != nil {
			t.Fatal(err)
		}
		l, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: c.Connectivity}, nil)
		if err != nil {
			t.Errorf("%s: %v", c.File, err)
			continue
		}
		if got := shareddata.LabelsSHA256(l.Data); l.Count != c.Components || got != c.SHA256 {
			t.Errorf("%s %s %d-connected: %d components (sha256 %.12s), want %d (%.12s)",
				c.File, c.Mode, c.Connectivity, l.Count, got, c.Components, c.SHA256)
		}
		checked++
	}
	return checked
}

// CheckFuzzVolume checks a volume a reader accepted: frames of one size
// that validate, finite positive spacing, finite affine.
func CheckFuzzVolume(t *testing.T, v *imagegraph.Volume) {
	t.Helper()
	if len(v.Frames) == 0 || v.Slope != 1 || v.Inter != 0 {
		t.Fatalf("%d frames, slope %v, inter %v", len(v.Frames), v.Slope, v.Inter)
	}
	r0 := v.Frames[0]
	for _, r := range v.Frames {
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		if r.Width != r0.Width || r.Height != r0.Height || r.Depth != r0.Depth || r.Kind != r0.Kind {
			t.Fatal("frames differ in shape or kind")
		}
	}
	for i, s := range v.Spacing {
		if !(s > 0) || math.IsInf(s, 0) {
			t.Fatalf("spacing %v", v.Spacing)
		}
		for _, a := range v.Affine[i] {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				t.Fatalf("affine %v", v.Affine)
			}
		}
	}
}
