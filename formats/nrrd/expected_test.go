package nrrd

import (
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/internal/testcheck"
	"github.com/cclabel/cclabel/internal/shareddata"
)

func TestNRRDExpected(t *testing.T) {
	cases := shareddata.Cases(t, func(c shareddata.Case) bool {
		return strings.HasSuffix(c.File, ".nrrd") || strings.HasSuffix(c.File, ".nhdr")
	})
	if len(cases) == 0 {
		t.Fatal("no NRRD cases in expected.json")
	}
	n := testcheck.CheckExpected(t, cases, ReadFile)
	if n == 0 {
		t.Skip("no NRRD files present")
	}
	t.Logf("%d NRRD cases checked", n)
}
