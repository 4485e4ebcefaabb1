package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/labelfile"
)

func TestFileBarQuietAndJSON(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{{nil, true}, {[]string{"-q"}, false}, {[]string{"--quiet"}, false}, {[]string{"--json"}, false}} {
		var bar *fileprogress.Bar
		var errOut bytes.Buffer
		cmd := &cli.Command{Name: "t", Flags: []cli.Flag{&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}}, &cli.BoolFlag{Name: "json"}},
			Action: func(_ context.Context, cmd *cli.Command) error {
				bar = fileBar(cmd, stdio{Err: &errOut}, "in.nii.gz")
				return nil
			}}
		if err := cmd.Run(context.Background(), append([]string{"t"}, c.args...)); err != nil {
			t.Fatal(err)
		}
		if (bar != nil) != c.want {
			t.Errorf("%v: bar %v, want one: %v", c.args, bar != nil, c.want)
		}
		bar.Close()
		if errOut.Len() != 0 {
			t.Errorf("%v: a quick file printed %q", c.args, errOut.String())
		}
	}
}

func TestVolumeWrites(t *testing.T) {
	for _, c := range []struct {
		job  labelfile.VolumeOutputs
		want []any
	}{
		{labelfile.VolumeOutputs{Output: "o.nii.gz"}, []any{"o.nii.gz"}},
		{labelfile.VolumeOutputs{Output: "d/x.nii.gz", Labels: "l.npy", Preview: "p.png", Stats: "s.csv"}, []any{"d/x.nii.gz", "l.npy"}},
		{labelfile.VolumeOutputs{Stats: "s.csv"}, nil},
	} {
		if got := volumeWrites(c.job); !slices.Equal(got, c.want) {
			t.Errorf("%+v: watches %v, want %v", c.job, got, c.want)
		}
	}
}

func TestSlabProgress(t *testing.T) {
	if slabProgress(nil, "o.nii.gz") != nil {
		t.Error("a nil bar gets a progress function")
	}
	out := filepath.Join(t.TempDir(), "o.nii.gz")
	bar := fileprogress.NewPlain(io.Discard, "in.npy", time.Hour, time.Hour)
	defer bar.Close()
	bar.Stage("labeling")
	labeling := bar.Meter()
	progress := slabProgress(bar, out)
	for _, done := range []int{7, 14, 21} {
		progress(done, 29)
		if d, total, unit := labeling.Progress(); d != int64(done) || total != 29 || unit != fileprogress.Planes {
			t.Errorf("after %d planes: %d/%d %s", done, d, total, unit)
		}
		if fileprogress.ForFile(out) != nil {
			t.Error("the output is watched before the last slab")
		}
	}
	progress(29, 29)
	if d, _, _ := labeling.Progress(); d != 29 {
		t.Errorf("after the last slab: %d planes", d)
	}
	if m := fileprogress.ForFile(out); m == nil || m != bar.Meter() || m == labeling {
		t.Error("the last slab did not start the writing stage watching the output")
	}
}
