package formats

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// nrrdSharedCases returns the cases of expected.json whose file passes keep,
// skipping the test when the shared data is absent.
func nrrdSharedCases(t *testing.T, keep func(file string) bool) []expectedCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(sharedData, "expected.json"))
	if err != nil {
		t.Skipf("shared data absent: %v", err)
	}
	var all, out []expectedCase
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if keep(c.File) {
			out = append(out, c)
		}
	}
	return out
}

// nrrdLabelsSHA256 hashes labels in the canonical form of expected.json:
// uint32 little-endian, memory order.
func nrrdLabelsSHA256(labels []uint32) string {
	h := sha256.New()
	buf := make([]byte, 0, 1<<16)
	for i, l := range labels {
		buf = binary.LittleEndian.AppendUint32(buf, l)
		if len(buf) == cap(buf) || i == len(labels)-1 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// nrrdCheckExpected reads every case with read and checks its shape
// ([X, Y, Z]), component count and label hash; it returns how many cases
// it checked.
func nrrdCheckExpected(t *testing.T, cases []expectedCase, read func(path string) (*Volume, error)) int {
	t.Helper()
	checked := 0
	for _, c := range cases {
		path := filepath.Join(sharedData, c.File)
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
		if got := nrrdLabelsSHA256(l.Data); l.Count != c.Components || got != c.SHA256 {
			t.Errorf("%s %s %d-connected: %d components (sha256 %.12s), want %d (%.12s)",
				c.File, c.Mode, c.Connectivity, l.Count, got, c.Components, c.SHA256)
		}
		checked++
	}
	return checked
}

func TestNRRDExpected(t *testing.T) {
	cases := nrrdSharedCases(t, func(f string) bool { return strings.HasSuffix(f, ".nrrd") || strings.HasSuffix(f, ".nhdr") })
	if len(cases) == 0 {
		t.Fatal("no NRRD cases in expected.json")
	}
	n := nrrdCheckExpected(t, cases, ReadNRRDFile)
	if n == 0 {
		t.Skip("no NRRD files present")
	}
	t.Logf("%d NRRD cases checked", n)
}
