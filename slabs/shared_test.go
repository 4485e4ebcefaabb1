package slabs

import (
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

// TestSlabsSharedVolumes labels every 3D case of the shared data in slabs
// of 7 planes (job/raster's out-of-core test takes 1 and 64 on the NIfTI
// ones) and checks the joined labels against expected.json's count and
// hash.
func TestSlabsSharedVolumes(t *testing.T) {
	if testing.Short() {
		t.Skip("the shared volumes take the full run (CI's -race -short run covers concurrency elsewhere)")
	}
	cases := testkit.Cases(t, func(c testkit.Case) bool { return strings.HasPrefix(c.File, "volumes/") })
	thicknesses := []int{7}
	checked := 0
	for _, c := range cases {
		v, err := formats.ReadVolumeFile(testkit.Path(c.File), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.File, err)
		}
		if v.Frames[0].Depth == 1 {
			continue
		}
		rule, err := imagegraph.ParseRule(c.Mode)
		if err != nil {
			t.Fatal(err)
		}
		rule.Slope, rule.Inter = v.Slope, v.Inter
		label := serialLabel(rule, c.Connectivity)
		for _, thick := range thicknesses {
			frames := make([][]uint32, len(v.Frames))
			total := 0
			for i, f := range v.Frames {
				var n int
				frames[i], n = labelBySlabs(t, f, label, thick, 0)
				total += n
			}
			if total != c.Components || testkit.LabelsSHA256(frames...) != c.SHA256 {
				t.Errorf("%s %s/%d, slabs of %d: %d components, want %d; hash match %v", c.File, c.Mode, c.Connectivity,
					thick, total, c.Components, testkit.LabelsSHA256(frames...) == c.SHA256)
			}
		}
		checked++
	}
	if checked < 15 {
		t.Errorf("only %d volume cases checked", checked)
	}
}
