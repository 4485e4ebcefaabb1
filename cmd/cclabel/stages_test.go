package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONSplitsTheLabelStage checks that --json splits the label stage
// into its parts, and that -q silences the summary line.
func TestJSONSplitsTheLabelStage(t *testing.T) {
	dir := t.TempDir()
	vol, img := filepath.Join(dir, "v.npy"), filepath.Join(dir, "i.npy")
	for _, args := range [][]string{
		{"gen", "volume", "--size", "60,50,40", "--seed", "3", "-o", vol},
		{"gen", "image", "--size", "300x200", "--seed", "3", "-o", img},
	} {
		if r := runCLI(t, "", args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	png := filepath.Join(dir, "i.png")
	if r := runCLI(t, "", "gen", "image", "--size", "300x200", "--seed", "3", "-o", png); r.code != 0 {
		t.Fatalf("gen png: %s", r.stderr)
	}
	pngBytes, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stdin string
		args  []string
		// allocate: the label stage allocates the label array; otherwise
		// the header gave the size and the array was made while reading.
		allocate bool
	}{
		{"", []string{"volume", vol, "--binary", "--backend", "cpu", "--json"}, false},
		{"", []string{"label", img, "--binary", "--backend", "cpu", "--json"}, false},
		{string(pngBytes), []string{"label", "-", "--binary", "--backend", "cpu", "--json"}, true},
	} {
		args := c.args
		r := runCLI(t, c.stdin, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		var s struct {
			Seconds     stageTimes  `json:"seconds"`
			LabelStages labelStages `json:"label_seconds"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
			t.Fatalf("%v: bad JSON %q: %v", args, r.stdout, err)
		}
		st := s.LabelStages
		sum := st.GPUSetup + st.Allocate + st.Upload + st.Kernel + st.Download + st.Other
		if st.Kernel <= 0 || (st.Allocate > 0) != c.allocate || st.Other < 0 || st.Upload != 0 || st.Download != 0 || st.GPUSetup != 0 {
			t.Errorf("%v: label stages %+v", args, st)
		}
		// The parts add up to the label stage (Other is the remainder).
		if d := sum - s.Seconds.Label; d < -1e-9 || d > 1e-6 && st.Other > 0 {
			t.Errorf("%v: label stages sum to %g, the label stage is %g", args, sum, s.Seconds.Label)
		}
		if strings.Contains(r.stderr, "\r") {
			t.Errorf("%v: a progress bar in a --json run: %q", args, r.stderr)
		}
	}
	for _, args := range [][]string{{"volume", vol, "-q"}, {"label", img, "--quiet"}} {
		if r := runCLI(t, "", args...); r.code != 0 || r.stderr != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, r.code, r.stderr)
		}
	}
}
