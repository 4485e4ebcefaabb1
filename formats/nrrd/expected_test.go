package nrrd

import (
	"strings"
	"testing"

	"github.com/cclabel/cclabel/internal/testkit"
)

func TestNRRDExpected(t *testing.T) {
	cases := testkit.Cases(t, func(c testkit.Case) bool {
		return strings.HasSuffix(c.File, ".nrrd") || strings.HasSuffix(c.File, ".nhdr")
	})
	if len(cases) == 0 {
		t.Fatal("no NRRD cases in expected.json")
	}
	n := testkit.CheckExpected(t, cases, testkit.LabelVolume(ReadFile))
	if n == 0 {
		t.Skip("no NRRD files present")
	}
	t.Logf("%d NRRD cases checked", n)
}
