package job_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job"
	"github.com/cclabel/cclabel/job/raster"
)

// TestFileEveryFrame checks that a File of a 4D volume, as a batch takes
// it, counts the components of every frame, as many as its statistics
// have rows and as the frames have when labeled alone.
func TestFileEveryFrame(t *testing.T) {
	dir := t.TempDir()
	const w, h, d, frames = 5, 4, 6, 4
	rng := rand.New(rand.NewPCG(25, frames))
	values := make([][]uint32, frames)
	for f := range values {
		values[f] = make([]uint32, w*h*d)
		for i := range values[f] {
			values[f][i] = uint32(rng.IntN(3+f)) * 1000
		}
	}
	r, err := imagegraph.NewRaster(w, h, d, make([]uint16, w*h*d))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "v4.nii.gz")
	if err := formats.WriteVolumeLabels(in, &imagegraph.Volume{Frames: []*imagegraph.Raster{r}, Slope: 1, Format: "npy"}, values, "uint16"); err != nil {
		t.Fatal(err)
	}
	vol, err := formats.ReadVolumeFile(in, nil)
	if err != nil || len(vol.Frames) != frames {
		t.Fatalf("read back: %v", err)
	}
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendSerial})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s := job.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}, DType: "auto"}
	want := 0
	for _, f := range vol.Frames {
		one := *vol
		one.Frames = []*imagegraph.Raster{f}
		vl, err := raster.LabelVolume(l, &one, s, 26)
		if err != nil {
			t.Fatal(err)
		}
		want += vl.Total
	}

	statsPath := filepath.Join(dir, "v4.stats.csv")
	f := &job.File{Kind: formats.KindVolume, Volume: raster.VolumeOutputs{Input: in, Output: filepath.Join(dir, "out.nii.gz"), Stats: statsPath}}
	if err := f.Read(); err != nil {
		t.Fatal(err)
	}
	components, voxels, err := f.Label(l, s, 4, 26, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write(s, nil); err != nil {
		t.Fatal(err)
	}
	stats, err := os.ReadFile(statsPath)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Count(string(stats), "\n") - 1
	if components != int64(want) || rows != want || voxels != w*h*d*frames {
		t.Errorf("%d components, %d voxels, %d stats rows; %d components in the frames alone", components, voxels, rows, want)
	}
}
