package gridcc

import (
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func TestRowKeys(t *testing.T) {
	r, err := imagegraph.NewRaster(4, 2, 1, []int16{0, 5, 5, -3, 7, 0, 200, 5})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]uint32, 4)
	multi := NewRowKeys(r, imagegraph.Rule{Mode: imagegraph.Multilabel})
	multi.Row(0, dst)
	if dst[0] != 0 || dst[1] != dst[2] || dst[1] == 0 || dst[3] == dst[1] || dst[3] == 0 {
		t.Errorf("multilabel row 0: %v", dst)
	}
	NewRowKeys(r, imagegraph.Rule{Mode: imagegraph.Binary}).Row(1, dst)
	if !slices.Equal(dst, []uint32{1, 0, 1, 1}) {
		t.Errorf("binary row 1: %v", dst)
	}
	NewRowKeys(r, imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 6}).Row(1, dst)
	if dst[0] == 0 || dst[1] != 0 || dst[2] == 0 || dst[3] != 0 {
		t.Errorf("threshold 6, row 1: %v", dst)
	}
}
