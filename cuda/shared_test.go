package cuda

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
)

// sharedData returns the folder of the shared test data: $CCLABEL_SHARED_DATA
// (for runs on the GPU machine, where ../shared does not travel) or
// ../../shared/data. It skips the test when the folder is absent.
func sharedData(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CCLABEL_SHARED_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data")
	}
	if _, err := os.Stat(filepath.Join(dir, "expected.json")); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	return dir
}

func TestSharedGraphsOnGPU(t *testing.T) {
	dir := sharedData(t)
	c := gpuContext(t)
	raw, err := os.ReadFile(filepath.Join(dir, "graphs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		File       string `json:"file"`
		Components int    `json:"components"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		lg, err := formats.ReadGraphFile(filepath.Join(dir, tc.File), formats.GraphReadOptions{})
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
	}
}

func TestSharedImagesAndVolumesOnGPU(t *testing.T) {
	dir := sharedData(t)
	c := gpuContext(t)
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		File         string `json:"file"`
		Mode         string `json:"mode"`
		Connectivity int    `json:"connectivity"`
		Components   int    `json:"components"`
		SHA256       string `json:"sha256"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	ran, skipped := 0, 0
	for _, tc := range cases {
		path := filepath.Join(dir, tc.File)
		var frames []*imagegraph.Raster
		slope, inter := 1.0, 0.0
		if strings.HasPrefix(tc.File, "images/") && tc.Connectivity <= 8 {
			img, err := formats.DecodeImageFile(path)
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
		h := sha256.New()
		total := 0
		for _, f := range frames {
			labels, n, _, err := c.LabelGrid(f, tc.Connectivity, rule)
			if err != nil {
				t.Fatal(err)
			}
			total += n
			buf := make([]byte, 0, 4*len(labels))
			for _, l := range labels {
				buf = binary.LittleEndian.AppendUint32(buf, l)
			}
			h.Write(buf)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != tc.SHA256 || total != tc.Components {
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
