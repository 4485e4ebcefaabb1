package job

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestSummariesSplitTheLabelStage checks that the summaries split the
// label stage into its parts, that the label array is allocated in the
// label stage only where it is not made while the input is read, and
// that a quiet job reports nothing.
func TestSummariesSplitTheLabelStage(t *testing.T) {
	dir := t.TempDir()
	vol, img, png := filepath.Join(dir, "v.npy"), filepath.Join(dir, "i.npy"), filepath.Join(dir, "i.png")
	for _, c := range []struct {
		path    string
		w, h, d int
	}{{vol, 60, 50, 40}, {img, 300, 200, 1}, {png, 300, 200, 1}} {
		r, err := gen.RandomRaster(c.w, c.h, c.d, 0.5, 3)
		if err != nil {
			t.Fatal(err)
		}
		if err := formats.WriteRasterFile(c.path, r); err != nil {
			t.Fatal(err)
		}
	}
	pngBytes, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	binary := Settings{Rule: imagegraph.Rule{Mode: imagegraph.Binary}, DType: "auto"}
	volume := func(threads int) labelCase {
		return labelCase{threads: threads, run: func(l *cclabel.Labeler, p Progress) (StageTimes, LabelStages, error) {
			s, err := Volume{Inputs: []string{vol}, Settings: binary, Connectivity: 26}.Run(context.Background(), l, p)
			if err != nil {
				return StageTimes{}, LabelStages{}, err
			}
			return s[0].Seconds, s[0].LabelStages, nil
		}}
	}
	// An image's labels go to a 16-bit PNG (a uint32 label array); with no
	// output (labels "") the image is only counted, in no array.
	image := func(path, stdin string, threads int, labels string) labelCase {
		return labelCase{threads: threads, run: func(l *cclabel.Labeler, p Progress) (StageTimes, LabelStages, error) {
			j := Image{Inputs: []string{path}, Labels: labels, Settings: binary, Connectivity: 8, Stdin: strings.NewReader(stdin)}
			s, err := j.Run(context.Background(), l, p)
			if err != nil {
				return StageTimes{}, LabelStages{}, err
			}
			return s[0].Seconds, s[0].LabelStages, nil
		}}
	}
	// With prefaultMinCores cores or more a file's label array is made
	// while it is read (the header gives its size), except for a mapped
	// .npy labeled on every core (its read is too short to overlap);
	// stdin's size is unknown, and fewer cores allocate in the label stage.
	// A count alone allocates nothing.
	out := filepath.Join(dir, "l.png")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{2, prefaultMinCores} {
		few := procs < prefaultMinCores
		runtime.GOMAXPROCS(procs)
		cases := []labelCase{volume(0), volume(1), image(img, "", 0, out), image(img, "", 1, out), image(png, "", 0, out),
			image("-", string(pngBytes), 0, out), image(img, "", 1, ""), image(png, "", 0, "")}
		for i, allocate := range []bool{true, few, true, few, few, true, false, false} {
			cases[i].allocate = allocate
		}
		checkLabelStages(t, cases)
	}
	for i, c := range []labelCase{volume(0), image(img, "", 0, out)} {
		var out bytes.Buffer
		l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.run(l, Progress{W: &out, Quiet: true}); err != nil || out.Len() != 0 {
			t.Errorf("quiet job %d: %v, reported %q; want nothing", i, err, out.String())
		}
		l.Close()
	}
}

// checkLabelStages runs each case and checks its label stages.
func checkLabelStages(t *testing.T, cases []labelCase) {
	t.Helper()
	for i, c := range cases {
		l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Threads: c.threads})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		seconds, st, err := c.run(l, Progress{W: &out, NoDisplay: true})
		l.Close()
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		sum := st.GPUSetup + st.Allocate + st.Upload + st.Kernel + st.Download + st.Other
		if st.Kernel <= 0 || (st.Allocate > 0) != c.allocate || st.Other < 0 || st.Upload != 0 || st.Download != 0 || st.GPUSetup != 0 {
			t.Errorf("case %d on %d cores: label stages %+v (allocate expected: %v)", i, runtime.GOMAXPROCS(0), st, c.allocate)
		}
		// The parts add up to the label stage (Other is the remainder).
		if d := sum - seconds.Label; d < -1e-9 || d > 1e-6 && st.Other > 0 {
			t.Errorf("case %d: label stages sum to %g, the label stage is %g", i, sum, seconds.Label)
		}
		if strings.Contains(out.String(), "\r") {
			t.Errorf("case %d: a progress bar without a display: %q", i, out.String())
		}
	}
}

// labelCase is a job whose label stages checkLabelStages checks.
type labelCase struct {
	threads  int
	run      func(*cclabel.Labeler, Progress) (StageTimes, LabelStages, error)
	allocate bool // the label stage allocates the label array
}
