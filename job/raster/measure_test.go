package raster_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/cclabel/cclabel/job/raster"
)

// TestWriteVolumeMeasuresEveryFrame measures a 4D volume frame by frame:
// under a threshold the intensity is each frame's own samples; in
// multilabel mode it is another file's single frame, for every frame, and
// the contacts lead with their frame. Sums and contact counts are checked
// against a breadth-first search of each frame.
func TestWriteVolumeMeasuresEveryFrame(t *testing.T) {
	dir := t.TempDir()
	const w, h, d, frames = 7, 6, 5, 3
	in := filepath.Join(dir, "in4d.nii.gz")
	vol := write4D(t, in, w, h, d, frames)
	ref := *vol
	ref.Frames = vol.Frames[:1]
	one := make([]uint32, w*h*d)
	for i := range one {
		one[i] = uint32(i % 11)
	}
	other := filepath.Join(dir, "t1.nii.gz")
	if err := formats.WriteVolumeLabels(other, &ref, [][]uint32{one}, "uint16"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		rule      imagegraph.Rule
		intensity string
	}{
		{"threshold", imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 1000}, ""},
		{"multilabel", imagegraph.Rule{Mode: imagegraph.Multilabel}, other},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := raster.Settings{Rule: c.rule, DType: "auto", Measures: raster.Measures{Intensity: true, Shape: true}}
			vl, err := raster.LabelVolume(newLabeler(t), vol, s, 6)
			if err != nil {
				t.Fatal(err)
			}
			out := raster.VolumeOutputs{Input: in, Stats: filepath.Join(dir, c.name+".csv"), Contacts: filepath.Join(dir, c.name+".c.csv"), Intensity: c.intensity}
			if err := raster.WriteVolume(out, vol, vl, s); err != nil {
				t.Fatal(err)
			}
			stats, contacts := readRows(t, out.Stats), readRows(t, out.Contacts)
			wantContacts := 0
			row := 0
			for f := range frames {
				keys := make([]uint32, w*h*d)
				values := make([]float64, w*h*d)
				for i := range keys {
					v := vol.Frames[f].Value(i)
					keys[i] = uint32(v)
					if c.rule.Mode == imagegraph.Threshold {
						keys[i] = map[bool]uint32{true: 1}[v >= 1000]
						values[i] = v
					} else {
						values[i] = float64(one[i])
					}
				}
				labels, n := testkit.BFSLabels(grid.GridShape{Width: w, Height: h, Depth: d}, 6, keys)
				sums := make([]float64, n+1)
				for i, l := range labels {
					sums[l] += values[i]
				}
				for i := range labels { // 6-neighbour pairs of different labels
					for _, step := range []int{1, w, w * h} {
						x, y := i%w, i/w%h
						if j := i + step; j < len(labels) && (step != 1 || x+1 < w) && (step != w || y+1 < h) &&
							labels[i] != 0 && labels[j] != 0 && labels[i] != labels[j] {
							wantContacts++ // counted as faces
						}
					}
				}
				for k := 1; k <= n; k++ {
					r := stats[row]
					row++
					if r["frame"] != strconv.Itoa(f) || r["label"] != strconv.Itoa(k) || r["sum"] != strconv.FormatFloat(sums[k], 'g', -1, 64) {
						t.Fatalf("frame %d label %d: %v, want sum %g", f, k, r, sums[k])
					}
				}
			}
			if row != len(stats) {
				t.Fatalf("%d rows, want %d", len(stats), row)
			}
			faces := 0
			for _, r := range contacts {
				n, _ := strconv.Atoi(r["faces"])
				faces += n
				if r["frame"] == "" {
					t.Fatalf("contact %v has no frame", r)
				}
			}
			if faces != wantContacts || (c.rule.Mode == imagegraph.Multilabel) != (faces > 0) {
				t.Fatalf("%d faces in contacts, want %d", faces, wantContacts)
			}
		})
	}
}

// readRows reads a CSV file's rows as maps by column.
func readRows(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, rec := range all[1:] {
		m := map[string]string{}
		for i, name := range all[0] {
			m[name] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}
