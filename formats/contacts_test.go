package formats_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestWriteStatsTableColumns checks the header and a row of statistics
// with measures in 2D, 3D, with an affine and with frames, the JSON fields
// (NaN written as null), and a count of measures that does not match.
func TestWriteStatsTableColumns(t *testing.T) {
	s := []imagegraph.ComponentStats{{Label: 1, Value: 7, Size: 4, Max: [3]int{1, 1, 0}, Centroid: [3]float64{0.5, 0.5, 0}}}
	m := []formats.Measures{{Sum: 10, Mean: 2.5, Min: 1, Max: 4, Std: 1.25, WCentroid: [3]float64{0.25, 0.75, 0}, Surface: 8, EqDiameter: 2.256758334191025}}
	affine := [3][4]float64{{2, 0, 0, 1}, {0, 2, 0, 0}, {0, 0, 2, 0}}
	for _, c := range []struct {
		name string
		o    formats.StatsOptions
		want string
	}{
		{"2D", formats.StatsOptions{Format: "csv", Intensity: true, Shape: true, Perimeter: true},
			"label,value,size,x0,y0,x1,y1,cx,cy,sum,mean,min,max,std,wcx,wcy,perimeter,eq_diameter\n" +
				"1,7,4,0,0,1,1,0.500,0.500,10,2.5,1,4,1.25,0.25,0.75,8,2.256758334191025\n"},
		{"3D shape", formats.StatsOptions{Format: ".csv", Is3D: true, Shape: true},
			"label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz,surface_mm2,eq_diameter\n" +
				"1,7,4,0,0,0,1,1,0,0.500,0.500,0.000,8,2.256758334191025\n"},
		{"affine frames", formats.StatsOptions{Format: "csv", Is3D: true, Affine: &affine, Frames: 2, Intensity: true},
			"frame,label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz,volume_mm3,px,py,pz,sum,mean,min,max,std,wcx,wcy,wcz,wpx,wpy,wpz\n" +
				"0,1,7,4,0,0,0,1,1,0,0.500,0.500,0.000,32.000,2.000,1.000,0.000,10,2.5,1,4,1.25,0.25,0.75,0,1.5,1.5,0\n" +
				"1,1,7,4,0,0,0,1,1,0,0.500,0.500,0.000,32.000,2.000,1.000,0.000,10,2.5,1,4,1.25,0.25,0.75,0,1.5,1.5,0\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			err := formats.WriteStatsTable(&b, c.o, func(int) ([]imagegraph.ComponentStats, []formats.Measures, error) { return s, m, nil })
			if err != nil || b.String() != c.want {
				t.Fatalf("got %q, %v\nwant %q", b.String(), err, c.want)
			}
		})
	}
	nan := []formats.Measures{{Sum: math.NaN(), Mean: math.Inf(1), Surface: 3}}
	var b bytes.Buffer
	o := formats.StatsOptions{Format: "json", Is3D: true, Intensity: true, Shape: true}
	if err := formats.WriteStatsTable(&b, o, func(int) ([]imagegraph.ComponentStats, []formats.Measures, error) { return s, nan, nil }); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b.Bytes(), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%s: %v", b.String(), err)
	}
	if r := rows[0]; r["sum"] != nil || r["mean"] != nil || r["surface_mm2"] != 3.0 || len(r["wcentroid"].([]any)) != 3 || r["perimeter"] != nil {
		t.Fatalf("row %v", r)
	}
	err := formats.WriteStatsTable(&b, o, func(int) ([]imagegraph.ComponentStats, []formats.Measures, error) { return s, nil, nil })
	if err == nil {
		t.Fatal("no error for missing measures")
	}
}

// TestWriteContacts checks contacts files: CSV with and without frames,
// JSON read back, an empty JSON array, and an error from the source.
func TestWriteContacts(t *testing.T) {
	cs := []formats.Contact{{A: 1, B: 2, Faces: 3, Area: 1.5}, {A: 1, B: 4, Faces: 1, Area: 0.1}}
	one := func(int) ([]formats.Contact, error) { return cs, nil }
	for _, c := range []struct {
		format string
		frames int
		want   string
	}{
		{"csv", 1, "label_a,label_b,faces,area_mm2\n1,2,3,1.5\n1,4,1,0.1\n"},
		{".csv", 2, "frame,label_a,label_b,faces,area_mm2\n0,1,2,3,1.5\n0,1,4,1,0.1\n1,1,2,3,1.5\n1,1,4,1,0.1\n"},
	} {
		var b bytes.Buffer
		if err := formats.WriteContacts(&b, c.format, c.frames, one); err != nil || b.String() != c.want {
			t.Errorf("%s x%d: %q, %v", c.format, c.frames, b.String(), err)
		}
	}
	var b bytes.Buffer
	if err := formats.WriteContacts(&b, "json", 1, one); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		A     uint32  `json:"label_a"`
		B     uint32  `json:"label_b"`
		Faces int64   `json:"faces"`
		Area  float64 `json:"area_mm2"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil || len(got) != 2 || got[1].B != 4 || got[0].Area != 1.5 {
		t.Fatalf("%s: %v", b.String(), err)
	}
	b.Reset()
	if err := formats.WriteContacts(&b, "json", 1, func(int) ([]formats.Contact, error) { return nil, nil }); err != nil || b.String() != "[]\n" {
		t.Fatalf("empty: %q, %v", b.String(), err)
	}
	bad := errors.New("bad frame")
	if err := formats.WriteContacts(&b, "csv", 2, func(int) ([]formats.Contact, error) { return nil, bad }); !errors.Is(err, bad) {
		t.Fatalf("err = %v", err)
	}
	if err := formats.WriteContacts(&b, "txt", 1, one); err == nil || !strings.Contains(err.Error(), "format") {
		t.Fatalf("err = %v", err)
	}
}
