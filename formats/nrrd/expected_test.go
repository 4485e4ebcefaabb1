package nrrd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestNRRDExpected(t *testing.T) {
	cases := testkit.Cases(t, func(c testkit.Case) bool {
		return strings.HasSuffix(c.File, ".nrrd") || strings.HasSuffix(c.File, ".nhdr")
	})
	if len(cases) == 0 {
		t.Fatal("no NRRD cases in expected.json")
	}
	n := testkit.CheckExpected(t, cases, labelCase)
	if n == 0 {
		t.Skip("no NRRD files present")
	}
	t.Logf("%d NRRD cases checked", n)
}

// labelCase reads the volume at path and labels its one frame as c says.
func labelCase(path string, c testkit.Case) (testkit.Labeled, error) {
	v, err := ReadFile(path)
	if err != nil {
		return testkit.Labeled{}, err
	}
	if len(v.Frames) != 1 {
		return testkit.Labeled{}, fmt.Errorf("%d frames, want 1", len(v.Frames))
	}
	r := v.Frames[0]
	rule, err := imagegraph.ParseRule(c.Mode)
	if err != nil {
		return testkit.Labeled{}, err
	}
	l, err := imagegraph.Label(r, rule, imagegraph.Options{Connectivity: c.Connectivity}, nil)
	if err != nil {
		return testkit.Labeled{}, err
	}
	return testkit.Labeled{Shape: [3]int{r.Width, r.Height, r.Depth}, Labels: l.Data, Count: l.Count}, nil
}
