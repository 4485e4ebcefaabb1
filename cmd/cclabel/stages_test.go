package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
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
	// With prefaultMinCores cores or more a file's label array is made
	// while it is read (the header gives its size), except for a mapped
	// .npy labeled on every core (its read is too short to overlap);
	// stdin's size is unknown, and fewer cores allocate in the label stage.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var cases []labelCase
	for _, procs := range []int{2, prefaultMinCores} {
		few := procs < prefaultMinCores
		runtime.GOMAXPROCS(procs)
		cases = append(cases[:0],
			labelCase{"", []string{"volume", vol, "--binary", "--backend", "cpu", "--json"}, true},
			labelCase{"", []string{"volume", vol, "--binary", "--backend", "cpu", "--threads", "1", "--json"}, few},
			labelCase{"", []string{"label", img, "--binary", "--backend", "cpu", "--json"}, true},
			labelCase{"", []string{"label", img, "--binary", "--backend", "cpu", "--threads", "1", "--json"}, few},
			labelCase{"", []string{"label", png, "--binary", "--backend", "cpu", "--json"}, few},
			labelCase{string(pngBytes), []string{"label", "-", "--binary", "--backend", "cpu", "--json"}, true})
		checkLabelStages(t, cases)
	}
	for _, args := range [][]string{{"volume", vol, "-q"}, {"label", img, "--quiet"}} {
		if r := runCLI(t, "", args...); r.code != 0 || r.stderr != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, r.code, r.stderr)
		}
	}
}

// checkLabelStages runs each case and checks its label_seconds.
func checkLabelStages(t *testing.T, cases []labelCase) {
	t.Helper()
	for _, c := range cases {
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
			t.Errorf("%v on %d cores: label stages %+v (allocate expected: %v)", args, runtime.GOMAXPROCS(0), st, c.allocate)
		}
		// The parts add up to the label stage (Other is the remainder).
		if d := sum - s.Seconds.Label; d < -1e-9 || d > 1e-6 && st.Other > 0 {
			t.Errorf("%v: label stages sum to %g, the label stage is %g", args, sum, s.Seconds.Label)
		}
		if strings.Contains(r.stderr, "\r") {
			t.Errorf("%v: a progress bar in a --json run: %q", args, r.stderr)
		}
	}
}

// labelCase is a CLI run whose label stage checkLabelStages checks.
type labelCase struct {
	stdin    string
	args     []string
	allocate bool // the label stage allocates the label array
}
