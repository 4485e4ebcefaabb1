package imagegraph_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func TestWriteVolumeStats(t *testing.T) {
	stats := []imagegraph.ComponentStats{{Label: 1, Value: 3, Size: 10,
		Min: [3]int{0, 1, 2}, Max: [3]int{4, 5, 6}, Centroid: [3]float64{2, 3, 4}}}
	// 2 x 0.5 x 3 mm voxels, flipped y, origin (10, 20, 30).
	affine := [3][4]float64{{2, 0, 0, 10}, {0, -0.5, 0, 20}, {0, 0, 3, 30}}
	var buf bytes.Buffer
	if err := imagegraph.WriteVolumeStats(&buf, stats, "csv", affine); err != nil {
		t.Fatal(err)
	}
	want := "label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz,volume_mm3,px,py,pz\n" +
		"1,3,10,0,1,2,4,5,6,2.000,3.000,4.000,30.000,14.000,18.500,42.000\n"
	if buf.String() != want {
		t.Fatalf("csv:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	if err := imagegraph.WriteVolumeStats(&buf, stats, ".json", affine); err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &recs); err != nil || recs[0]["volume_mm3"] != 30.0 {
		t.Fatalf("json %s: %v", buf.String(), err)
	}
	buf.Reset()
	if err := imagegraph.WriteStats(&buf, stats, "json", false); err != nil || strings.Contains(buf.String(), "mm") {
		t.Fatalf("2D json %s: %v", buf.String(), err)
	}
	if err := imagegraph.WriteStats(&buf, stats, "xml", false); err == nil {
		t.Fatal("unknown format accepted")
	}
}
