package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestVolume4DStatsAndPreviewNote labels a 4D NIfTI of 3 frames: its
// --stats hold every frame's rows, led by a frame column, equal to those
// of each frame labeled alone as a 3D file on the serial backend; the
// summary says which frame the preview shows, and --json gives it as
// preview_frame. A 3D volume's summary has neither.
func TestVolume4DStatsAndPreviewNote(t *testing.T) {
	dir := t.TempDir()
	const w, h, d, frames = 9, 7, 5, 3
	rng := rand.New(rand.NewPCG(4, 25))
	values := make([][]uint32, frames)
	for f := range values {
		values[f] = make([]uint32, w*h*d)
		for i := range values[f] {
			values[f][i] = uint32(rng.IntN(2 + f))
		}
	}
	r, err := imagegraph.NewRaster(w, h, d, make([]uint8, w*h*d))
	if err != nil {
		t.Fatal(err)
	}
	ref := imagegraph.NewVolume(r, "npy")
	in := filepath.Join(dir, "in4d.nii.gz")
	if err := formats.WriteVolumeLabels(in, ref, values, "uint8"); err != nil {
		t.Fatal(err)
	}
	stats, preview := filepath.Join(dir, "s.csv"), filepath.Join(dir, "p.png")
	res := runCLI(t, "", "volume", in, "-c", "6", "-o", filepath.Join(dir, "out.nii.gz"), "--stats", stats, "--preview", preview)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if note := in + ": preview " + preview + " shows frame 0 of 3\n"; !strings.HasSuffix(res.stderr, note) {
		t.Errorf("stderr %q lacks the note %q", res.stderr, note)
	}
	got, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	// Each frame alone, as a 3D file.
	want := ""
	for f, v := range values {
		one := filepath.Join(dir, "f"+strconv.Itoa(f)+".nii.gz")
		oneStats := filepath.Join(dir, "f"+strconv.Itoa(f)+".csv")
		if err := formats.WriteVolumeLabels(one, ref, [][]uint32{v}, "uint8"); err != nil {
			t.Fatal(err)
		}
		if res := runCLI(t, "", "volume", one, "-c", "6", "--backend", "serial", "--stats", oneStats, "-q"); res.code != 0 {
			t.Fatalf("frame %d alone: exit %d: %s", f, res.code, res.stderr)
		}
		text, err := os.ReadFile(oneStats)
		if err != nil {
			t.Fatal(err)
		}
		header, rows, _ := strings.Cut(string(text), "\n")
		if f == 0 {
			want = "frame," + header + "\n"
		}
		for _, row := range strings.SplitAfter(rows, "\n") {
			if row != "" {
				want += strconv.Itoa(f) + "," + row
			}
		}
	}
	if string(got) != want {
		t.Fatalf("4D stats:\n%s\nwant:\n%s", got, want)
	}

	// --json: preview_frame with a 4D volume's preview only.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{in, "--preview", preview}, "0"},
		{[]string{in}, ""},
		{[]string{filepath.Join(dir, "f0.nii.gz"), "--preview", preview}, ""},
	} {
		res := runCLI(t, "", append(append([]string{"volume"}, c.args...), "--json", "-q")...)
		var s map[string]json.RawMessage
		if err := json.Unmarshal([]byte(res.stdout), &s); res.code != 0 || err != nil {
			t.Fatalf("%v: exit %d, %v: %s", c.args, res.code, err, res.stderr)
		}
		if string(s["preview_frame"]) != c.want || res.stderr != "" {
			t.Errorf("%v: preview_frame %q, want %q; stderr %q", c.args, s["preview_frame"], c.want, res.stderr)
		}
	}
}
