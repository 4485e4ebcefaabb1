package imagegraph

import (
	"strings"
	"testing"
)

func TestVoxelCount(t *testing.T) {
	for _, c := range []struct {
		w, h, d int
		want    int
		err     string
	}{
		{2048, 2048, 1024, 2048 * 2048 * 1024, ""},
		{40000, 40000, 1, 1600000000, ""},
		{30000, 30000, 2, 1800000000, ""}, // one kernel's worth
		{40000, 40000, 3, 0, "two planes may hold at most"},
		{50000, 50000, 1, 0, "in a plane"},
		{1 << 20, 1 << 10, 1 << 11, 0, "more than 1099511627776 voxels"},
		{0, 5, 5, 0, "at least 1"},
	} {
		got, err := VoxelCount(c.w, c.h, c.d)
		if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("VoxelCount(%d, %d, %d) = %d, %v; want %d, %q", c.w, c.h, c.d, got, err, c.want, c.err)
		}
	}
}
