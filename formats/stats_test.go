package formats_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

func TestWriteVolumeStats(t *testing.T) {
	stats := []imagegraph.ComponentStats{{Label: 1, Value: 3, Size: 10,
		Min: [3]int{0, 1, 2}, Max: [3]int{4, 5, 6}, Centroid: [3]float64{2, 3, 4}}}
	// 2 x 0.5 x 3 mm voxels, flipped y, origin (10, 20, 30).
	affine := [3][4]float64{{2, 0, 0, 10}, {0, -0.5, 0, 20}, {0, 0, 3, 30}}
	var buf bytes.Buffer
	if err := formats.WriteVolumeStats(&buf, stats, "csv", affine); err != nil {
		t.Fatal(err)
	}
	want := "label,value,size,x0,y0,z0,x1,y1,z1,cx,cy,cz,volume_mm3,px,py,pz\n" +
		"1,3,10,0,1,2,4,5,6,2.000,3.000,4.000,30.000,14.000,18.500,42.000\n"
	if buf.String() != want {
		t.Fatalf("csv:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	if err := formats.WriteVolumeStats(&buf, stats, ".json", affine); err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &recs); err != nil || recs[0]["volume_mm3"] != 30.0 {
		t.Fatalf("json %s: %v", buf.String(), err)
	}
	buf.Reset()
	if err := formats.WriteStats(&buf, stats, "json", false); err != nil || strings.Contains(buf.String(), "mm") {
		t.Fatalf("2D json %s: %v", buf.String(), err)
	}
	if err := formats.WriteStats(&buf, stats, "xml", false); err == nil {
		t.Fatal("unknown format accepted")
	}
}

// valueOracle formats sample i of a raster's data as the statistics
// should: integers by strconv from the Go value, floats by 'g' -1 at
// their own size.
func valueOracle(data any, i int) string {
	switch d := data.(type) {
	case imagegraph.Samples[uint32]:
		return strconv.FormatUint(uint64(d[i]), 10)
	case imagegraph.Samples[uint64]:
		return strconv.FormatUint(d[i], 10)
	case imagegraph.Samples[int16]:
		return strconv.FormatInt(int64(d[i]), 10)
	case imagegraph.Samples[int64]:
		return strconv.FormatInt(d[i], 10)
	case imagegraph.Samples[float32]:
		return strconv.FormatFloat(float64(d[i]), 'g', -1, 32)
	case imagegraph.Samples[float64]:
		return strconv.FormatFloat(d[i], 'g', -1, 64)
	}
	panic(fmt.Sprintf("no oracle for %T", data))
}

// TestWriteStatsValues labels 1x3 rasters of two components (a sample,
// a background 0, another sample) and checks the value column of the
// CSV and the value field of the JSON.
func TestWriteStatsValues(t *testing.T) {
	rgb, _ := imagegraph.NewRGB(3, 1, 1, []uint32{0xABCDEF, 0, 0xFFFFFF})
	raster := func(r *imagegraph.Raster, err error) *imagegraph.Raster {
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name string
		r    *imagegraph.Raster
		json []string // the JSON value texts
	}{
		{"rgb", rgb, []string{"11259375", "16777215"}},
		{"uint32", raster(imagegraph.NewRaster(3, 1, 1, []uint32{4000000000, 0, 7})), []string{"4000000000", "7"}},
		{"int16", raster(imagegraph.NewRaster(3, 1, 1, []int16{-32768, 0, 32767})), []string{"-32768", "32767"}},
		{"int64", raster(imagegraph.NewRaster(3, 1, 1, []int64{1<<53 + 1, 0, -(1<<62 + 3)})), []string{"9007199254740993", "-4611686018427387907"}},
		{"uint64", raster(imagegraph.NewRaster(3, 1, 1, []uint64{math.MaxUint64, 0, 1 << 63})), []string{"18446744073709551615", "9223372036854775808"}},
		{"float32", raster(imagegraph.NewRaster(3, 1, 1, []float32{0.1, 0, 16777216})), []string{"0.1", "16777216"}},
		{"float64", raster(imagegraph.NewRaster(3, 1, 1, []float64{0.1, 0, 11259375.5})), []string{"0.1", "11259375.5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gridcc.Label(tc.r, imagegraph.Rule{Mode: imagegraph.Multilabel}, gridcc.Options{Connectivity: 4}, nil)
			if err != nil || l.Count != 2 {
				t.Fatalf("%d components, %v", l.Count, err)
			}
			stats, err := imagegraph.Statistics(l, tc.r)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := formats.WriteStats(&buf, stats, "csv", false); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			for k, i := range []int{0, 2} { // the components' pixels
				if got := strings.Split(lines[k+1], ",")[1]; got != valueOracle(tc.r.Data, i) {
					t.Errorf("csv value %d: %s, want %s", k, got, valueOracle(tc.r.Data, i))
				}
			}
			buf.Reset()
			if err := formats.WriteStats(&buf, stats, "json", false); err != nil {
				t.Fatal(err)
			}
			var recs []map[string]json.RawMessage
			if err := json.Unmarshal(buf.Bytes(), &recs); err != nil || len(recs) != 2 {
				t.Fatalf("json %s: %v", buf.String(), err)
			}
			for k, want := range tc.json {
				if got := string(recs[k]["value"]); got != want {
					t.Errorf("json value %d: %s, want %s", k, got, want)
				}
			}
		})
	}
}

// testStats returns n deterministic components of frame t.
func testStats(t, n int) []imagegraph.ComponentStats {
	stats := make([]imagegraph.ComponentStats, n)
	for i := range stats {
		stats[i] = imagegraph.ComponentStats{Label: uint32(i + 1), Value: float64(10*t + i), Size: int64(1 + i + t),
			Min: [3]int{i, t, 0}, Max: [3]int{i + 2, t + 1, 3}, Centroid: [3]float64{float64(i) + 0.5, float64(t) + 0.25, 1.125}}
	}
	return stats
}

// TestWriteFrameStats checks the statistics of several frames against
// those of each frame written alone (WriteVolumeStats): CSV rows gain a
// leading frame column, JSON objects a frame field, and one frame writes
// the same bytes as WriteVolumeStats.
func TestWriteFrameStats(t *testing.T) {
	affine := [3][4]float64{{2, 0, 0, 10}, {0, -0.5, 0, 20}, {0, 0, 3, 30}}
	counts := []int{2, 0, 3} // components per frame; frame 1 has none
	frameStats := func(t int) ([]imagegraph.ComponentStats, error) { return testStats(t, counts[t]), nil }
	for _, format := range []string{"csv", ".json"} {
		t.Run(format, func(t *testing.T) {
			var all bytes.Buffer
			if err := formats.WriteFrameStats(&all, len(counts), frameStats, format, affine); err != nil {
				t.Fatal(err)
			}
			alone := make([]string, len(counts))
			for f := range counts {
				var b bytes.Buffer
				if err := formats.WriteVolumeStats(&b, testStats(f, counts[f]), format, affine); err != nil {
					t.Fatal(err)
				}
				alone[f] = b.String()
			}
			if format == "csv" {
				header, _, _ := strings.Cut(alone[0], "\n")
				want := "frame," + header + "\n"
				for f, text := range alone {
					_, rows, _ := strings.Cut(text, "\n")
					for _, row := range strings.SplitAfter(rows, "\n") {
						if row != "" {
							want += strconv.Itoa(f) + "," + row
						}
					}
				}
				if all.String() != want {
					t.Fatalf("csv:\n%s\nwant:\n%s", all.String(), want)
				}
				return
			}
			// JSON: the objects of every frame in order, each with its
			// frame, laid out as json.Encoder with indent " " does.
			var got []map[string]any
			if err := json.Unmarshal(all.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			var want []map[string]any
			for f, text := range alone {
				var recs []map[string]any
				if err := json.Unmarshal([]byte(text), &recs); err != nil {
					t.Fatal(err)
				}
				for _, r := range recs {
					r["frame"] = float64(f)
					want = append(want, r)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("json %v\nwant %v", got, want)
			}
			var compact, indented bytes.Buffer
			if err := json.Compact(&compact, all.Bytes()); err != nil {
				t.Fatal(err)
			}
			json.Indent(&indented, compact.Bytes(), "", " ")
			if indented.String()+"\n" != all.String() {
				t.Fatalf("json layout:\n%s\nwant:\n%s", all.String(), indented.String())
			}
			if !strings.HasPrefix(all.String(), "[\n {\n  \"frame\": 0,\n  \"label\": 1,") {
				t.Fatalf("json does not lead with the frame: %s", all.String()[:40])
			}
		})
	}
	// One frame: WriteVolumeStats's bytes; none: an error; a frame's
	// error stops the writing.
	for _, format := range []string{"csv", "json"} {
		var one, vol bytes.Buffer
		if err := formats.WriteFrameStats(&one, 1, frameStats, format, affine); err != nil {
			t.Fatal(err)
		}
		formats.WriteVolumeStats(&vol, testStats(0, 2), format, affine)
		if one.String() != vol.String() {
			t.Errorf("%s, one frame:\n%s\nwant:\n%s", format, one.String(), vol.String())
		}
	}
	if err := formats.WriteFrameStats(io.Discard, 0, frameStats, "csv", affine); err == nil {
		t.Error("no frames accepted")
	}
	bad := errors.New("frame 1 failed")
	err := formats.WriteFrameStats(io.Discard, 3, func(t int) ([]imagegraph.ComponentStats, error) {
		if t == 1 {
			return nil, bad
		}
		return testStats(t, 1), nil
	}, "csv", affine)
	if !errors.Is(err, bad) {
		t.Errorf("a frame's error: %v", err)
	}
	called := false
	err = formats.WriteFrameStats(io.Discard, 2, func(int) ([]imagegraph.ComponentStats, error) { called = true; return nil, nil }, "xml", affine)
	if err == nil || called {
		t.Errorf("unknown format: %v, statistics computed: %v", err, called)
	}
}

// TestWriteStatsEmptyAndLayout checks that the JSON of no components is
// "[]" and that of some is laid out as json.Encoder with indent " " lays
// out the whole array (json.Indent of the compact text), as the
// statistics were before they were written row by row.
func TestWriteStatsEmptyAndLayout(t *testing.T) {
	for _, is3D := range []bool{false, true} {
		var b bytes.Buffer
		if err := formats.WriteStats(&b, nil, "json", is3D); err != nil || b.String() != "[]\n" {
			t.Errorf("no components: %q, %v", b.String(), err)
		}
		b.Reset()
		if err := formats.WriteStats(&b, testStats(1, 3), "json", is3D); err != nil {
			t.Fatal(err)
		}
		var compact, want bytes.Buffer
		if err := json.Compact(&compact, b.Bytes()); err != nil {
			t.Fatal(err)
		}
		json.Indent(&want, compact.Bytes(), "", " ")
		if b.String() != want.String()+"\n" {
			t.Errorf("layout:\n%s\nwant:\n%s", b.String(), want.String())
		}
	}
}
