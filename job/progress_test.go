package job

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/job/raster"
)

func TestProgressBarQuietAndNoDisplay(t *testing.T) {
	for _, c := range []struct {
		quiet, noDisplay, want bool
	}{{false, false, true}, {true, false, false}, {false, true, false}, {true, true, false}} {
		var errOut bytes.Buffer
		bar := Progress{W: &errOut, Quiet: c.quiet, NoDisplay: c.noDisplay}.bar("in.nii.gz")
		if (bar != nil) != c.want {
			t.Errorf("quiet %v, no display %v: bar %v, want one: %v", c.quiet, c.noDisplay, bar != nil, c.want)
		}
		bar.Close()
		if errOut.Len() != 0 {
			t.Errorf("quiet %v, no display %v: a quick file printed %q", c.quiet, c.noDisplay, errOut.String())
		}
	}
	if (Progress{}).bar("in.nii.gz") != nil {
		t.Error("a progress without a writer shows a bar")
	}
}

func TestVolumeWrites(t *testing.T) {
	for _, c := range []struct {
		job  raster.VolumeOutputs
		want []any
	}{
		{raster.VolumeOutputs{Output: "o.nii.gz"}, []any{"o.nii.gz"}},
		{raster.VolumeOutputs{Output: "d/x.nii.gz", Labels: "l.npy", Preview: "p.png", Stats: "s.csv"}, []any{"d/x.nii.gz", "l.npy"}},
		{raster.VolumeOutputs{Stats: "s.csv"}, nil},
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
