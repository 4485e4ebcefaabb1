package formats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/shareddata"
)

// nrrdCheckExpected reads every case with read and checks its shape
// ([X, Y, Z]), component count and label hash; it returns how many cases
// it checked.
func nrrdCheckExpected(t *testing.T, cases []shareddata.Case, read func(path string) (*imagegraph.Volume, error)) int {
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
		l, err := imagegraph.Label(r, rule, imagegraph.Options{Connectivity: c.Connectivity}, nil)
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

func TestNRRDExpected(t *testing.T) {
	cases := shareddata.Cases(t, func(c shareddata.Case) bool {
		return strings.HasSuffix(c.File, ".nrrd") || strings.HasSuffix(c.File, ".nhdr")
	})
	if len(cases) == 0 {
		t.Fatal("no NRRD cases in expected.json")
	}
	n := nrrdCheckExpected(t, cases, ReadNRRDFile)
	if n == 0 {
		t.Skip("no NRRD files present")
	}
	t.Logf("%d NRRD cases checked", n)
}
