package job_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job"
)

// TestCancelledVolumeStopsWithTheCause: a Volume job over several inputs
// whose context is done starts no input, writes nothing and returns the
// context's cause, not a count of failed files.
func TestCancelledVolumeStopsWithTheCause(t *testing.T) {
	dir := t.TempDir()
	mask, err := imagegraph.NewRaster(4, 3, 2, make([]uint8, 24))
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, name := range []string{"a.npy", "b.npy"} {
		in := filepath.Join(dir, name)
		if err := formats.WriteRasterFile(in, mask); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, in)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	stop := errors.New("stopped by the caller")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	j := job.Volume{Inputs: inputs, Output: out, Settings: job.Settings{Rule: cclabel.Rule{Mode: cclabel.Binary}, DType: "auto"}, Connectivity: 6}
	s, err := j.Run(ctx, lab, job.Progress{Quiet: true})
	if !errors.Is(err, stop) || len(s) != 0 {
		t.Fatalf("Run = %d summaries, %v; want none and the cause", len(s), err)
	}
	if names, _ := os.ReadDir(out); len(names) != 0 {
		t.Errorf("a cancelled run wrote %d files", len(names))
	}
}
