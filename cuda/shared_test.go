package cuda

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestSharedGraphsOnGPU(t *testing.T) {
	dir := testkit.Dir(t)
	c := gpuContext(t)
	cases := testkit.Graphs(t)
	for _, tc := range cases {
		lg, err := graphio.ReadFile(filepath.Join(dir, tc.File), graphio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := c.GraphComponents(lg.Graph)
		if err != nil {
			t.Fatal(err)
		}
		if want := ecl.ComponentsSerial(lg.Graph); !slices.Equal(got, want) {
			t.Errorf("%s: GPU representatives differ from the CPU", tc.File)
		}
		if n := ecl.NewResult(got, 1).Count; n != tc.Components {
			t.Errorf("%s: %d components on the GPU, want %d", tc.File, n, tc.Components)
		}
		checkGPUGraph(t, c, tc.File, lg.Graph)
	}
}

func TestSharedImagesAndVolumesOnGPU(t *testing.T) {
	dir := testkit.Dir(t)
	c := gpuContext(t)
	cases := testkit.Cases(t, nil)
	ran, skipped := 0, 0
	for _, tc := range cases {
		path := filepath.Join(dir, tc.File)
		var frames []*imagegraph.Raster
		slope, inter := 1.0, 0.0
		if strings.HasPrefix(tc.File, "images/") && tc.Connectivity <= 8 {
			img, err := imageio.DecodeFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := imagegraph.FromImage(img)
			if err != nil {
				t.Fatal(err)
			}
			frames = []*imagegraph.Raster{r}
		} else {
			v, err := formats.ReadVolumeFile(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			frames, slope, inter = v.Frames, v.Slope, v.Inter
		}
		rule, err := imagegraph.ParseRule(tc.Mode)
		if err != nil {
			t.Fatal(err)
		}
		rule.Slope, rule.Inter = slope, inter
		if !SupportsRaster(frames[0]) {
			skipped++
			continue
		}
		var labelFrames [][]uint32
		total := 0
		for _, f := range frames {
			labels, n, _, err := c.LabelGrid(f, tc.Connectivity, rule)
			if err != nil {
				t.Fatal(err)
			}
			total += n
			labelFrames = append(labelFrames, labels)
		}
		if got := testkit.LabelsSHA256(labelFrames...); got != tc.SHA256 || total != tc.Components {
			t.Errorf("%s %s c%d: GPU gives %d components, sha256 %s; want %d, %s",
				tc.File, tc.Mode, tc.Connectivity, total, got, tc.Components, tc.SHA256)
		}
		ran++
	}
	t.Logf("%d cases on the GPU, %d skipped (sample types the kernels do not take)", ran, skipped)
	if ran == 0 {
		t.Fatal("no case ran on the GPU")
	}
}
